import type { Route } from '../router.ts';

/** A workspace of the signed-in person, as `GET /dashboard/api/me` lists it. */
export interface Workspace {
  id: number;
  name: string;
  currency: string;
  /** IANA name: every view's dates are this zone's calendar days. */
  timezone: string;
  role: 'owner' | 'viewer';
  profit: boolean;
}

/** What the shell hands every view. */
export interface ViewProps {
  route: Route;
  workspace: Workspace;
  /** Reads the person's workspaces again, after a change of one (its time zone). */
  reloadWorkspaces(): void;
}
