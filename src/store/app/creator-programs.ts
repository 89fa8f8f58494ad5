/**
 * Creator programs (docs/families.md, "Creators"): a tool drafts a commission template
 * (creators.create-program), a person applies it (`creator-program apply`, the dashboard) and
 * un-applies it. Only an applied program earns its creators a commission. Stored as objects of
 * kind `creator_program`; every apply and un-apply is audited.
 */
import { z } from 'zod';
import { Conflict, NotFound } from '../../kit/errors.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { findObject, listObjects, MAX_OBJECTS_PER_KIND, updateObject, type ToolObject } from './tool-objects.ts';

export const CREATOR_PROGRAM_KIND = 'creator_program';

/** A program's commission rule, as creators.create-program takes it. */
export const commissionRule = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('percentage').describe('Share of revenue'),
      rate_percent: z.number().gt(0).max(100).describe('Percent of revenue'),
    }).strict(),
    z.object({
      type: z.literal('fixed').describe('Amount per order'),
      amount_cents: z.number().int().min(1).max(100_000_000).describe('Per attributed order'),
    }).strict(),
    z.object({
      type: z.literal('tiered').describe('Rate by monthly revenue'),
      tiers: z
        .array(
          z.object({
            min_revenue_cents: z.number().int().min(0).describe('Creator revenue of the month from which the tier applies'),
            rate_percent: z.number().gt(0).max(100).describe('Percent of revenue'),
          }).strict(),
        )
        .min(1)
        .max(10)
        .refine((tiers) => tiers.every((t, i) => i === 0 || t.min_revenue_cents > tiers[i - 1]!.min_revenue_cents), {
          error: 'tiers must be ordered by strictly increasing min_revenue_cents',
        })
        .describe('Ordered by min_revenue_cents'),
    }).strict(),
  ])
  .describe('Commission rule');

export type Commission = z.output<typeof commissionRule>;

export interface CreatorProgramData {
  name: string;
  commission: Commission;
  applied: boolean;
  /** When a person last applied it (ISO); null once un-applied. */
  applied_at?: string | null;
}

export type CreatorProgram = ToolObject<CreatorProgramData>;

/** The program as the CLI and the dashboard show it: id as a string, applied_at null when not applied. */
export function creatorProgramOut(program: CreatorProgram) {
  return { id: String(program.id), ...program.data, applied_at: program.data.applied_at ?? null };
}

export async function requireCreatorProgram(db: AppDatabase, workspaceId: number, id: number): Promise<CreatorProgram> {
  const program = await findObject<CreatorProgramData>(db, workspaceId, CREATOR_PROGRAM_KIND, id);
  if (!program) throw new NotFound(`Creator program ${id} not found`);
  return program;
}

export function listCreatorPrograms(db: AppDatabase, workspaceId: number): Promise<CreatorProgram[]> {
  return listObjects<CreatorProgramData>(db, workspaceId, CREATOR_PROGRAM_KIND, { limit: MAX_OBJECTS_PER_KIND, offset: 0 });
}

/** Makes the program's commission count for its creators. Applying an applied program again changes nothing. */
export async function applyCreatorProgram(db: AppDatabase, workspaceId: number, id: number, actor: string): Promise<CreatorProgram> {
  const program = await requireCreatorProgram(db, workspaceId, id);
  if (program.data.applied) return program;
  const applied = (await updateObject<CreatorProgramData>(db, workspaceId, CREATOR_PROGRAM_KIND, id, { applied: true, applied_at: new Date().toISOString() }))!;
  await recordAudit(db, { workspaceId, actor, action: 'creator_program.apply', target: `${CREATOR_PROGRAM_KIND}:${id}` });
  return applied;
}

/** Ends the program's commission: its creators show none from then on (for any range). */
export async function unapplyCreatorProgram(db: AppDatabase, workspaceId: number, id: number, actor: string): Promise<CreatorProgram> {
  const program = await requireCreatorProgram(db, workspaceId, id);
  if (!program.data.applied) throw new Conflict(`Creator program ${id} is not applied`);
  const unapplied = (await updateObject<CreatorProgramData>(db, workspaceId, CREATOR_PROGRAM_KIND, id, { applied: false, applied_at: null }))!;
  await recordAudit(db, { workspaceId, actor, action: 'creator_program.unapply', target: `${CREATOR_PROGRAM_KIND}:${id}` });
  return unapplied;
}
