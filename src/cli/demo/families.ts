/**
 * The demo store's saved report, segments, geo test and loyalty program (docs/families.md), stored
 * as the tools and the CLI store them, so dashboards.get-dashboards, the dashboard's Saved reports,
 * segments.get-segments, geo-testing.get-tests and loyalty.get-programs answer from the first start. Creators need no
 * seeding: the demo traffic carries four creators' ref and coupon codes.
 */
import type { Stores } from '../../store/index.ts';
import { createObject } from '../../store/app/tool-objects.ts';
import { SAVED_REPORT_KIND, type SavedReport } from '../../store/app/saved-reports.ts';
import { createGeoTest, parseGeoTest } from '../../store/app/geo-tests.ts';
import { createLoyaltyProgram, parseLoyaltyProgram } from '../../store/app/loyalty-programs.ts';
import { ruleProblem, type SegmentRule } from '../../analytics/segment-fields.ts';
import { formatDay } from '../../kit/dates.ts';

const DAY_MS = 86_400_000;

const SEGMENTS: { name: string; description: string; rules: SegmentRule[] }[] = [
  { name: 'Repeat buyers', description: 'Customers with more than one order', rules: [{ field: 'orders_count', operator: 'greater_than', value: 1 }] },
  { name: 'Found us through meta', description: 'Customers whose visits came from Facebook or Instagram', rules: [{ field: 'adv_source', operator: 'equals', value: 'meta' }] },
];

export async function seedDemoFamilies(stores: Stores, workspaceId: number, nowMs: number): Promise<void> {
  const report: SavedReport = { name: 'Revenue and ROAS by source', metrics: ['revenue', 'conversions', 'spend', 'roas'], breakdown: 'source' };
  await createObject(stores.db, workspaceId, SAVED_REPORT_KIND, report);
  for (const segment of SEGMENTS) {
    const problem = segment.rules.map(ruleProblem).find(Boolean);
    if (problem) throw new Error(`demo segment ${segment.name}: ${problem}`);
    await createObject(stores.db, workspaceId, 'segment', { ...segment, audience_sync: false });
  }
  const test = parseGeoTest({
    name: 'Free shipping in Germany and the Netherlands',
    level: 'country',
    treatment: ['DE', 'NL'],
    control: ['GB', 'CA'],
    start_date: formatDay(nowMs - 14 * DAY_MS),
    end_date: formatDay(nowMs + 14 * DAY_MS),
  });
  await createGeoTest(stores.db, workspaceId, test, 'demo');
  const program = parseLoyaltyProgram({ name: 'Demo points', points_per_unit: 1, start_date: formatDay(nowMs - 30 * DAY_MS) });
  await createLoyaltyProgram(stores.db, workspaceId, program, 'demo');
}
