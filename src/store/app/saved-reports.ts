import type { AppDatabase } from '../app-db.ts';
import { findObject, listObjects, type ToolObject } from './tool-objects.ts';

/**
 * Saved reports: the analytics.query arguments dashboards.create-report keeps as a stored object
 * of this kind; the dashboard shows each as a view (docs/dashboard.md, "Saved reports").
 */
export const SAVED_REPORT_KIND = 'custom_report';

/** Saved reports a workspace keeps at the most (the bound of every stored kind). */
const MAX_SAVED_REPORTS = 10_000;

export interface SavedReport {
  name: string;
  metrics: string[];
  breakdown?: string;
  interval?: string;
  filters?: { date_from?: string; date_to?: string; timezone?: string; source?: string[]; ignore_sources?: string[] };
  attribution_model?: string;
  attribution_window?: number;
  attribution_date?: string;
}

export function listSavedReports(db: AppDatabase, workspaceId: number): Promise<ToolObject<SavedReport>[]> {
  return listObjects<SavedReport>(db, workspaceId, SAVED_REPORT_KIND, { limit: MAX_SAVED_REPORTS, offset: 0 });
}

export function findSavedReport(db: AppDatabase, workspaceId: number, id: number): ReturnType<typeof findObject<SavedReport>> {
  return findObject<SavedReport>(db, workspaceId, SAVED_REPORT_KIND, id);
}
