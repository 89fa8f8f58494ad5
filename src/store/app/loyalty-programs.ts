/**
 * Loyalty programs (docs/families.md, "Loyalty programs"): a person sets one up from the CLI
 * (`loyalty create`) with its points rate and first day; loyalty.get-programs reads them with
 * their members and points, derived from the workspace's sale orders. Stored as objects of kind
 * `loyalty_program`, every creation audited.
 */
import { z } from 'zod';
import { InvalidInput } from '../../kit/errors.ts';
import { parseBound } from '../../kit/calendar/days.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { countObjects, createObject, listObjects, type ToolObject } from './tool-objects.ts';

export const LOYALTY_PROGRAM_KIND = 'loyalty_program';
export const MAX_PROGRAMS = 100;
const RATE = 'points_per_unit must be a whole number from 1 to 1000';

export const loyaltyProgramInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    points_per_unit: z.number({ error: RATE }).int({ error: RATE }).min(1, { error: RATE }).max(1000, { error: RATE }),
    start_date: z.string().refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && parseBound(v, 'start') !== null, { error: 'start_date must be a calendar day YYYY-MM-DD' }),
  })
  .strict();

export type LoyaltyProgram = z.output<typeof loyaltyProgramInput>;

export function parseLoyaltyProgram(raw: unknown): LoyaltyProgram {
  const parsed = loyaltyProgramInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidInput(issue.code === 'custom' || issue.path[0] === 'points_per_unit' ? issue.message : `${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export async function createLoyaltyProgram(db: AppDatabase, workspaceId: number, program: LoyaltyProgram, actor: string): Promise<ToolObject<LoyaltyProgram>> {
  if ((await countObjects(db, workspaceId, LOYALTY_PROGRAM_KIND)) >= MAX_PROGRAMS) throw new InvalidInput(`A workspace keeps at most ${MAX_PROGRAMS} loyalty programs`);
  const created = await createObject<LoyaltyProgram>(db, workspaceId, LOYALTY_PROGRAM_KIND, program);
  await recordAudit(db, { workspaceId, actor, action: 'loyalty_program.create', target: `${LOYALTY_PROGRAM_KIND}:${created.id}`, details: { created: program } });
  return created;
}

export function listLoyaltyPrograms(db: AppDatabase, workspaceId: number, page: { limit: number; offset: number }): Promise<ToolObject<LoyaltyProgram>[]> {
  return listObjects<LoyaltyProgram>(db, workspaceId, LOYALTY_PROGRAM_KIND, page);
}
