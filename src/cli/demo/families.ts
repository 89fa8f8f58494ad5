/**
 * The demo store's saved report, segments, geo test, loyalty program and live form with its leads
 * (docs/families.md), stored as the tools, the CLI and the collector store them, so
 * dashboards.get-dashboards, the dashboard's Saved reports, segments.get-segments,
 * geo-testing.get-tests, loyalty.get-programs and forms.get-forms answer from the first start. Creators need no
 * seeding: the demo traffic carries four creators' ref and coupon codes.
 */
import type { Stores } from '../../store/index.ts';
import { createObject } from '../../store/app/tool-objects.ts';
import { SAVED_REPORT_KIND, type SavedReport } from '../../store/app/saved-reports.ts';
import { createGeoTest, parseGeoTest } from '../../store/app/geo-tests.ts';
import { createLoyaltyProgram, parseLoyaltyProgram } from '../../store/app/loyalty-programs.ts';
import { createForm, parseForm, publishForm } from '../../store/app/forms.ts';
import { checkValues, formSubmissionBody, formSubmissionRow } from '../../collect/form-submission.ts';
import { ruleProblem, type SegmentRule } from '../../analytics/segment-fields.ts';
import { formatDay } from '../../kit/calendar/days.ts';

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
  await seedDemoForm(stores, workspaceId, nowMs);
}

const LEADS: { email: string; interest: string }[] = [
  { email: 'ada@example.com', interest: 'Running' },
  { email: 'grace@example.org', interest: 'Hiking' },
  { email: 'linus@example.net', interest: 'Running' },
];

/**
 * A live newsletter form and three leads, each submission checked and turned into its row by the
 * collector's own code (as POST /collect/form does); the server is not listening yet, so the rows
 * go straight to the table the collector's log writes.
 */
async function seedDemoForm(stores: Stores, workspaceId: number, nowMs: number): Promise<void> {
  const draft = parseForm({
    name: 'Newsletter signup',
    fields: [
      { label: 'E-mail', type: 'email', required: true },
      { label: 'Interested in', type: 'select', options: ['Running', 'Hiking', 'Yoga'] },
    ],
  });
  const form = await publishForm(stores.db, workspaceId, (await createForm(stores.db, workspaceId, draft, 'demo')).id, 'demo');
  const rows = LEADS.map((lead, i) => {
    const body = formSubmissionBody.parse({ pixel_id: 'demo', form_id: String(form.id), values: [{ field: 0, value: lead.email }, { field: 1, value: lead.interest }] });
    return JSON.stringify(formSubmissionRow(workspaceId, form, body, checkValues(form, body.values), nowMs - (i + 1) * DAY_MS));
  });
  await stores.ch.insertNdjson('form_submissions', rows.join('\n'));
}
