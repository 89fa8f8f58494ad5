/**
 * Stored creators (docs/families.md, "Creators"): saved by creators.create with a 4-digit tracking
 * code, and tied by a person (`creator link-code`, the dashboard) to the codes the traffic already
 * carries for them (a `ref` link code, the stem of their coupons), so that the creator's figures
 * and commission count every one of its codes.
 */
import { Conflict, InvalidInput, NotFound } from '../../kit/errors.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { findObject, listObjects, MAX_OBJECTS_PER_KIND, updateObject, type ToolObject } from './tool-objects.ts';

export const CREATOR_KIND = 'creator';

/** Codes a creator may carry beside its tracking code. */
export const MAX_LINKED_CODES = 20;
const CODE = /^[A-Z0-9_-]{1,40}$/;

export interface StoredCreator {
  name: string;
  tracking_code: string;
  program_id: string;
  active: boolean;
  /** Codes linked to the creator besides its tracking code, upper case. */
  codes?: string[];
}

export type Creator = ToolObject<StoredCreator>;

/** Every code a stored creator counts, its tracking code first, upper case. */
export const codesOf = (creator: Creator): string[] => [creator.data.tracking_code.toUpperCase(), ...(creator.data.codes ?? [])];

export function listCreators(db: AppDatabase, workspaceId: number): Promise<Creator[]> {
  return listObjects<StoredCreator>(db, workspaceId, CREATOR_KIND, { limit: MAX_OBJECTS_PER_KIND, offset: 0 });
}

/**
 * Links `code` (a ref or coupon code of the traffic, compared in upper case) to creator `id`.
 * Linking a code it already has changes nothing; a code another creator counts is refused, so an
 * order is never counted for two creators.
 */
export async function linkCreatorCode(db: AppDatabase, workspaceId: number, id: number, rawCode: string, actor: string): Promise<Creator> {
  const code = rawCode.trim().toUpperCase();
  if (!CODE.test(code)) throw new InvalidInput('code must be 1 to 40 letters, digits, dashes or underscores');
  const creator = await findObject<StoredCreator>(db, workspaceId, CREATOR_KIND, id);
  if (!creator) throw new NotFound(`Creator ${id} not found`);
  if (codesOf(creator).includes(code)) return creator;
  const holder = (await listCreators(db, workspaceId)).find((other) => codesOf(other).includes(code));
  if (holder) throw new Conflict(`Code ${code} is already linked to creator ${holder.id} (${holder.data.name})`);
  const codes = creator.data.codes ?? [];
  if (codes.length >= MAX_LINKED_CODES) throw new Conflict(`Creator ${id} already has ${MAX_LINKED_CODES} linked codes`);
  const linked = (await updateObject<StoredCreator>(db, workspaceId, CREATOR_KIND, id, { codes: [...codes, code] }))!;
  await recordAudit(db, { workspaceId, actor, action: 'creator.link_code', target: `${CREATOR_KIND}:${id}`, details: { code } });
  return linked;
}
