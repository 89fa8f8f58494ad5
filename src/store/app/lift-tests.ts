/**
 * Lift tests (docs/attribution.md, "Experiments win"): what a holdout or other experiment measured
 * for one reporting source: the share of the conversions the source touched that it caused, over
 * the test's days, with an optional interval. Entered with `lift-test add`, listed with
 * `lift-test list`; the data-driven model takes the measured share instead of its fitted lift for
 * conversions in the test's days. Every addition is audited.
 */
import { z } from 'zod';
import { InvalidInput } from '../../kit/errors.ts';
import { parseBound } from '../../kit/calendar/days.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { bumpDataVersions } from './data-versions.ts';

/** A workspace keeps at most this many lift tests. */
export const MAX_LIFT_TESTS = 1_000;

const day = (name: string) =>
  z.string().refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && parseBound(v, 'start') !== null, { error: `${name} must be a calendar day YYYY-MM-DD` });
const share = (name: string) => z.number().refine((v) => Number.isFinite(v) && v >= 0 && v <= 1, { error: `${name} must be a number from 0 to 1` });

export const liftTestInput = z
  .object({
    source: z.string().regex(/^[a-z0-9_]{1,64}$/, { error: 'source must be a reporting source, e.g. meta' }),
    start_date: day('start_date'),
    end_date: day('end_date'),
    incremental_share: share('incremental_share'),
    interval: z.tuple([share('interval low'), share('interval high')]).nullable().default(null),
  })
  .strict()
  .superRefine((test, ctx) => {
    if (test.end_date < test.start_date) ctx.addIssue({ code: 'custom', message: 'end_date must not be before start_date' });
    const interval = test.interval;
    if (interval && !(interval[0] <= test.incremental_share && test.incremental_share <= interval[1])) {
      ctx.addIssue({ code: 'custom', message: 'the interval must contain incremental_share' });
    }
  });

export type LiftTestInput = z.output<typeof liftTestInput>;

export interface LiftTest extends LiftTestInput {
  id: number;
  created_at: string;
}

export function parseLiftTest(raw: unknown): LiftTestInput {
  const parsed = liftTestInput.safeParse(raw);
  if (!parsed.success) throw new InvalidInput(parsed.error.issues[0]!.message);
  return parsed.data;
}

export async function addLiftTest(db: AppDatabase, workspaceId: number, test: LiftTestInput, actor: string): Promise<LiftTest> {
  const count = await db.selectFrom('lift_tests').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_LIFT_TESTS) throw new InvalidInput(`A workspace keeps at most ${MAX_LIFT_TESTS} lift tests`);
  const created_at = new Date().toISOString();
  const row = await db
    .insertInto('lift_tests')
    .values({
      workspace_id: workspaceId, source: test.source, start_date: test.start_date, end_date: test.end_date,
      incremental_share: test.incremental_share, interval_low: test.interval?.[0] ?? null, interval_high: test.interval?.[1] ?? null, created_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordAudit(db, { workspaceId, actor, action: 'lift_test.add', target: String(row.id), details: { ...test } });
  // Answers kept under the data version (the report's result cache) change with the test.
  await bumpDataVersions(db, [workspaceId]);
  return { id: Number(row.id), ...test, created_at };
}

/** The workspace's lift tests, oldest first. */
export async function listLiftTests(db: AppDatabase, workspaceId: number): Promise<LiftTest[]> {
  const rows = await db.selectFrom('lift_tests').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
  return rows.map((r) => ({
    id: Number(r.id),
    source: r.source,
    start_date: r.start_date,
    end_date: r.end_date,
    incremental_share: Number(r.incremental_share),
    interval: r.interval_low === null || r.interval_high === null ? null : [Number(r.interval_low), Number(r.interval_high)],
    created_at: r.created_at,
  }));
}
