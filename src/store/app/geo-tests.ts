/**
 * Geo tests (docs/families.md, "Geo tests"): a person sets one up from the CLI (`geo-test
 * create`) with treatment and control regions and the test's days; geo-testing.get-tests reads
 * them with their results. Stored as objects of kind `geo_test`, every creation audited.
 */
import { z } from 'zod';
import { InvalidInput } from '../../kit/errors.ts';
import { DAY_MS, parseBound } from '../../kit/calendar/days.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { bumpDataVersions } from './data-versions.ts';
import { countObjects, createObject, listObjects, type ToolObject } from './tool-objects.ts';

export const GEO_TEST_KIND = 'geo_test';
const MAX_GEO_TESTS = 10_000;
export const MAX_REGIONS = 50;
export const MAX_TEST_DAYS = 366;

const day = (name: string) =>
  z.string().refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && parseBound(v, 'start') !== null, { error: `${name} must be a calendar day YYYY-MM-DD` });

const regions = (name: string) =>
  z.array(z.string().trim().min(1).max(100)).min(1, { error: `${name} needs at least one region` }).max(MAX_REGIONS, { error: `${name} takes at most ${MAX_REGIONS} regions` });

export const geoTestInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    level: z.enum(['country', 'city']),
    treatment: regions('treatment'),
    control: regions('control'),
    start_date: day('start_date'),
    end_date: day('end_date'),
    pre_days: z.number().int().min(7).max(365).default(28),
    /** The reporting source the treatment regions ran and the control regions did not: its finished result calibrates data_driven. */
    source: z.string().regex(/^[a-z0-9_]{1,64}$/, { error: 'source must be a reporting source, e.g. meta' }).optional(),
  })
  .strict()
  .transform((test) => ({
    ...test,
    // Country codes are stored as the orders carry them: upper case.
    treatment: test.level === 'country' ? test.treatment.map((r) => r.toUpperCase()) : test.treatment,
    control: test.level === 'country' ? test.control.map((r) => r.toUpperCase()) : test.control,
  }))
  .superRefine((test, ctx) => {
    const bad = [...test.treatment, ...test.control].find((r) => test.level === 'country' && !/^[A-Z]{2}$/.test(r));
    if (bad) ctx.addIssue({ code: 'custom', message: `country regions are two-letter country codes, not "${bad}"` });
    const shared = test.treatment.find((r) => test.control.includes(r));
    if (shared) ctx.addIssue({ code: 'custom', message: `${shared} is in both treatment and control` });
    const days = (Date.parse(test.end_date) - Date.parse(test.start_date)) / DAY_MS + 1;
    if (days < 1) ctx.addIssue({ code: 'custom', message: 'end_date must not be before start_date' });
    if (days > MAX_TEST_DAYS) ctx.addIssue({ code: 'custom', message: `a geo test runs at most ${MAX_TEST_DAYS} days` });
  });

export type GeoTest = z.output<typeof geoTestInput>;

export function parseGeoTest(raw: unknown): GeoTest {
  const parsed = geoTestInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidInput(issue.path.length && issue.code !== 'custom' ? `${issue.path.join('.')}: ${issue.message}` : issue.message);
  }
  return parsed.data;
}

export async function createGeoTest(db: AppDatabase, workspaceId: number, test: GeoTest, actor: string): Promise<ToolObject<GeoTest>> {
  if ((await countObjects(db, workspaceId, GEO_TEST_KIND)) >= MAX_GEO_TESTS) throw new InvalidInput(`A workspace keeps at most ${MAX_GEO_TESTS} geo tests`);
  const created = await createObject<GeoTest>(db, workspaceId, GEO_TEST_KIND, test);
  await recordAudit(db, { workspaceId, actor, action: 'geo_test.create', target: `${GEO_TEST_KIND}:${created.id}`, details: { created: test } });
  // A test that names a source calibrates data_driven: answers kept under the data version change with it.
  if (test.source) await bumpDataVersions(db, [workspaceId]);
  return created;
}

export function listGeoTests(db: AppDatabase, workspaceId: number, page: { limit: number; offset: number }): Promise<ToolObject<GeoTest>[]> {
  return listObjects<GeoTest>(db, workspaceId, GEO_TEST_KIND, page);
}
