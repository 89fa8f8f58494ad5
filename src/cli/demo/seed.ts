/**
 * Fills one workspace with the demo shop: the generator's rows go through the import kinds'
 * row formats and batch writers, exactly like an imported file; its ad spend goes in as the ad
 * platforms' own report exports, read by the same code as `import --kind ads`, and its city's
 * daily weather as a CSV file read by the same code as `import --kind weather`.
 */
import type { Clickhouse } from '../../store/clickhouse.ts';
import { findImportKind, newImportVersion } from '../../collect/import/kinds.ts';
import { importFile } from '../../collect/import/run.ts';
import { RowWriter } from '../../collect/import/writer.ts';
import { adExports } from './ad-exports.ts';
import { DemoGenerator, expenseRows, isoDate, productRows } from './generate.ts';
import { demoOrderRow } from './shopify-orders.ts';
import { weatherCsv } from './weather.ts';

export interface DemoOptions {
  workspaceId: number;
  days: number;
  /** The demo ends at this moment (default: now); its last day is today. */
  now?: Date;
  seed?: number;
  sessionsPerDay?: number;
  /** The workspace currency, in which the ad platforms' exports are written (default USD). */
  currency?: string;
  progress?: (message: string) => void;
}

export interface DemoResult {
  workspace_id: number;
  days: number;
  start_date: string;
  end_date: string;
  rows: Record<'events' | 'conversions' | 'orders' | 'ads' | 'products' | 'expenses' | 'weather', number>;
}

export const DEMO_SEED = 20260724;
export const DEMO_SESSIONS_PER_DAY = 1500;
const DAY_MS = 86_400_000;

export async function seedDemo(ch: Clickhouse, options: DemoOptions): Promise<DemoResult> {
  const now = (options.now ?? new Date()).getTime();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const first = today - (options.days - 1) * DAY_MS;
  const writer = (kind: string, version = newImportVersion()) =>
    new RowWriter(ch, findImportKind(kind)!, { workspaceId: options.workspaceId, version });
  const writers = {
    events: writer('events'),
    conversions: writer('conversions'),
    orders: writer('orders'),
    products: writer('products'),
    expenses: writer('expenses'),
  };
  const adRows: Record<string, unknown>[] = [];
  const adRevisions: Record<string, unknown>[] = [];
  // The generator writes rows in canonical row form (test/cli/demo-rows.test.ts checks every
  // kind against its schema), so seeding skips the per-row check that imports need.
  const add = async (target: RowWriter, rows: Record<string, unknown>[]) => {
    for (const row of rows) await target.push(target.kind.toRow(row, target.target));
  };

  const generator = new DemoGenerator(options.seed ?? DEMO_SEED, options.sessionsPerDay ?? DEMO_SESSIONS_PER_DAY);
  const started = performance.now();
  const step = Math.max(1, Math.ceil(options.days / 10));
  for (let i = 0; i < options.days; i++) {
    const day = generator.day(first + i * DAY_MS, i, options.days, now);
    await add(writers.events, day.events);
    await add(writers.conversions, day.conversions);
    for (const order of day.orders) await writers.orders.push(demoOrderRow(order, options.workspaceId));
    adRows.push(...day.ads);
    adRevisions.push(...day.adRevisions);
    if ((i + 1) % step === 0 || i === options.days - 1) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      options.progress?.(`demo: ${i + 1}/${options.days} days generated (${isoDate(first + i * DAY_MS)}, ${seconds}s)`);
    }
  }
  await add(writers.products, productRows());
  await add(writers.expenses, expenseRows(isoDate(first), isoDate(today)));
  for (const w of Object.values(writers)) await w.finish(options.progress);
  const currency = options.currency ?? 'USD';
  /** Imports one file as `import --kind K` does; the demo's own files must import whole. */
  const importDemoFile = async (kind: string, file: { name: string; text: string; format?: string }): Promise<number> => {
    const input = { name: file.name, text: file.text };
    const result = await importFile(ch, { kind: findImportKind(kind)!, workspaceId: options.workspaceId, input, format: file.format, currency });
    if (result.rows_rejected > 0) throw new Error(`demo: ${file.name} has rejected rows: ${JSON.stringify(result.errors.slice(0, 3))}`);
    return result.rows_imported;
  };
  // The restated rows are exported and imported later, so their version is newer and they win.
  let ads = 0;
  for (const [label, rows] of [['ads', adRows], ['restated', adRevisions]] as const) {
    for (const file of adExports(rows, currency, label)) ads += await importDemoFile('ads', file);
  }
  const weather = await importDemoFile('weather', { name: 'weather.csv', text: weatherCsv(first, today, options.seed ?? DEMO_SEED) });

  return {
    workspace_id: options.workspaceId,
    days: options.days,
    start_date: isoDate(first),
    end_date: isoDate(today),
    rows: {
      events: writers.events.written,
      conversions: writers.conversions.written,
      orders: writers.orders.written,
      ads,
      products: writers.products.written,
      expenses: writers.expenses.written,
      weather,
    },
  };
}
