/**
 * How close each attribution model comes to the true incremental shares (docs/attribution.md, "How
 * close each model comes"), on its own data dir. Each scenario of bench/attribution/synthetic-journeys.ts
 * becomes one workspace: a shopper is a visitor, each touch a session of its channel (an hour apart,
 * all within one day, so every touch is inside the 7-day window), a purchase 30 minutes after the
 * last touch in that session. Then /v3/report's core runs once per model with breakdown=source, and
 * each model's share of a source is its credited conversions over all credited conversions of the
 * channels (organic, the buyers without a touch, left out; any_click's rows are normalised the same
 * way). Reported: per scenario and model, the mean absolute error against the truth, and the shares.
 * Size: BENCH_JOURNEY_SHOPPERS shoppers per scenario (default each scenario's own, 20,000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStores, type Stores } from '../../src/store/index.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';
import { runReport } from '../../src/analytics/report/run.ts';
import { ATTRIBUTION_MODELS, type ModelName } from '../../src/analytics/attribution/index.ts';
import { SCENARIOS, generate, meanAbsoluteError, trueShares, type Journey } from '../attribution/synthetic-journeys.ts';

const SHOPPERS = process.env.BENCH_JOURNEY_SHOPPERS ? Number(process.env.BENCH_JOURNEY_SHOPPERS) : undefined;
const FIRST_DAY = Date.UTC(2026, 0, 1);
const DAYS = 20;
const HOUR = 3_600_000;

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

async function store(stores: Stores, workspaceId: number, journeys: Journey[]): Promise<void> {
  const events: string[] = [];
  const conversions: string[] = [];
  journeys.forEach((journey, i) => {
    const dayStart = FIRST_DAY + (i % DAYS) * 24 * HOUR + 8 * HOUR;
    journey.touches.forEach((channel, k) => {
      events.push(JSON.stringify({
        store_id: workspaceId, dt: stamp(dayStart + k * HOUR), name: 'pageview', session_id: i * 10 + k + 1, visitor_id: i + 1, pathname: '/', adv_source: channel,
      }));
    });
    if (!journey.converted) return;
    const last = Math.max(0, journey.touches.length - 1);
    conversions.push(JSON.stringify({
      store_id: workspaceId, dt: stamp(dayStart + last * HOUR + HOUR / 2), name: 'purchase', session_id: i * 10 + last + 1, visitor_id: i + 1,
      transaction_id: `S${i + 1}`, transaction_gross_revenue: 10_000, transaction_currency: 'USD',
    }));
  });
  await stores.ch.insertNdjson('events', events.join('\n'));
  await stores.ch.insertNdjson('conversions', conversions.join('\n'));
}

/** Each reporting source's share of the conversions credited to channels under `model`. */
async function modelShares(stores: Stores, workspaceId: number, model: ModelName): Promise<Map<string, number>> {
  const report = await runReport(stores, { workspaceId, visibility: visibilityOf(['admin:admin']) }, {
    start_date: stamp(FIRST_DAY).slice(0, 10),
    end_date: stamp(FIRST_DAY + DAYS * 24 * HOUR).slice(0, 10),
    breakdown: 'source',
    metrics: ['conversions'],
    attribution_model: model,
    attribution_window: 7,
    limit: 500,
    offset: 0,
  });
  const rows = report.rows.filter((r) => r.source !== 'organic').map((r) => [String(r.source), Number(r.conversions)] as const);
  const credited = rows.reduce((sum, [, n]) => sum + n, 0);
  return new Map(rows.map(([source, n]) => [source, credited > 0 ? n / credited : 0]));
}

const pct = (v: number) => (v * 100).toFixed(1);

export async function runAttributionTruthBench(log: (line: string) => void): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-bench-attribution-'));
  const config = loadConfig({}, { dataDir, demo: false });
  const stores = await openStores(config, createLogger('warn'));
  const summary: { scenario: string; errors: Record<string, number> }[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const { journeys, reached } = generate(scenario, SHOPPERS ?? scenario.shoppers);
      const workspace = await createWorkspace(stores.db, { name: scenario.name, currency: 'USD', timezone: 'UTC' });
      await store(stores, workspace.id, journeys);
      const truth = trueShares(scenario, reached);
      const shares = new Map<ModelName, Map<string, number>>();
      for (const model of ATTRIBUTION_MODELS) shares.set(model, await modelShares(stores, workspace.id, model));
      const errors = Object.fromEntries(ATTRIBUTION_MODELS.map((m) => [m, meanAbsoluteError(truth, shares.get(m)!)]));
      summary.push({ scenario: scenario.name, errors });
      const buyers = journeys.filter((j) => j.converted).length;
      log(`${scenario.name}: ${scenario.description}; ${journeys.length} shoppers, ${buyers} bought`);
      log(`| source | truth % | ${ATTRIBUTION_MODELS.join(' | ')} |`);
      log(`|---|---|${ATTRIBUTION_MODELS.map(() => '---').join('|')}|`);
      for (const [source, t] of truth) log(`| ${source} | ${pct(t)} | ${ATTRIBUTION_MODELS.map((m) => pct(shares.get(m)!.get(source) ?? 0)).join(' | ')} |`);
      log('');
    }
    log('Mean absolute error against the true shares, percentage points (lower is closer):');
    log(`| scenario | ${ATTRIBUTION_MODELS.join(' | ')} |`);
    log(`|---|${ATTRIBUTION_MODELS.map(() => '---').join('|')}|`);
    for (const s of summary) log(`| ${s.scenario} | ${ATTRIBUTION_MODELS.map((m) => pct(s.errors[m]!)).join(' | ')} |`);
    return summary;
  } finally {
    await stores.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
