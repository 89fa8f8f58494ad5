/**
 * How close each attribution model comes to the true incremental shares (docs/attribution.md, "How
 * close each model comes"), on its own data dir. Each scenario of bench/attribution/synthetic-journeys.ts
 * becomes one workspace: a shopper is a visitor with one untagged visit, then each touch a session of
 * its channel (an hour apart, all within one day, so every touch is inside the 7-day window), a
 * purchase 30 minutes after the last touch in that session. Then /v3/report's core runs once per model
 * with breakdown=source, and each model's share of a source is its credited conversions over all
 * credited conversions of the channels (organic, the buyers without a touch and data_driven's
 * baseline, left out; any_click's rows are normalised the same way). In a scenario observational data
 * cannot untangle (a touch that follows the decision, shoppers with intent), data_driven runs once
 * more after a lift test of the confounded source with what a perfect holdout would measure
 * (`data_driven + test`). Reported: per scenario and model, the mean absolute error against the
 * truth, and the shares. Size: BENCH_JOURNEY_SHOPPERS shoppers per scenario (default each
 * scenario's own, 20,000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStores, type Stores } from '../../src/store/index.ts';
import { createWorkspace } from '../../src/store/app/workspaces.ts';
import { addLiftTest } from '../../src/store/app/lift-tests.ts';
import { bumpDataVersions } from '../../src/store/app/data-versions.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';
import { runReport } from '../../src/analytics/report/run.ts';
import { ATTRIBUTION_MODELS, type ModelName } from '../../src/analytics/attribution/index.ts';
import {
  SCENARIOS, experimentSource, generate, meanAbsoluteError, trueIncrementalShare, trueShares, type Journey,
} from '../attribution/synthetic-journeys.ts';

const SHOPPERS = process.env.BENCH_JOURNEY_SHOPPERS ? Number(process.env.BENCH_JOURNEY_SHOPPERS) : undefined;
export const FIRST_DAY = Date.UTC(2026, 0, 1);
export const DAYS = 20;
const HOUR = 3_600_000;
const WITH_TEST = 'data_driven + test';

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
export const RANGE = { start_date: stamp(FIRST_DAY).slice(0, 10), end_date: stamp(FIRST_DAY + (DAYS - 1) * 24 * HOUR).slice(0, 10) };

/** The shoppers as stored rows: events (an untagged visit, then one session per touch) and purchases. */
export function journeyRows(workspaceId: number, journeys: Journey[]): { events: object[]; conversions: object[] } {
  const events: object[] = [];
  const conversions: object[] = [];
  journeys.forEach((journey, i) => {
    const dayStart = FIRST_DAY + (i % DAYS) * 24 * HOUR + 8 * HOUR;
    const visitor = i + 1;
    events.push({ store_id: workspaceId, dt: stamp(dayStart - HOUR), name: 'pageview', session_id: i * 10 + 9, visitor_id: visitor, pathname: '/' });
    journey.touches.forEach((channel, k) => {
      events.push({ store_id: workspaceId, dt: stamp(dayStart + k * HOUR), name: 'pageview', session_id: i * 10 + k + 1, visitor_id: visitor, pathname: '/', adv_source: channel });
    });
    if (!journey.converted) return;
    const last = Math.max(0, journey.touches.length - 1);
    conversions.push({
      store_id: workspaceId, dt: stamp(dayStart + last * HOUR + HOUR / 2), name: 'purchase', session_id: journey.touches.length ? i * 10 + last + 1 : i * 10 + 9,
      visitor_id: visitor, transaction_id: `S${i + 1}`, transaction_gross_revenue: 10_000, transaction_currency: 'USD',
    });
  });
  return { events, conversions };
}

async function store(stores: Stores, workspaceId: number, journeys: Journey[]): Promise<void> {
  const { events, conversions } = journeyRows(workspaceId, journeys);
  await stores.ch.insertNdjson('events', events.map((e) => JSON.stringify(e)).join('\n'));
  await stores.ch.insertNdjson('conversions', conversions.map((c) => JSON.stringify(c)).join('\n'));
  await bumpDataVersions(stores.db, [workspaceId]);
}

/** Each reporting source's share of the conversions credited to channels, from /v3/report's source rows. */
export function channelShares(rows: Record<string, unknown>[]): Map<string, number> {
  const credited = rows.filter((r) => r.source !== 'organic').map((r) => [String(r.source), Number(r.conversions)] as const);
  const total = credited.reduce((sum, [, n]) => sum + n, 0);
  return new Map(credited.map(([source, n]) => [source, total > 0 ? n / total : 0]));
}

async function modelShares(stores: Stores, workspaceId: number, model: ModelName): Promise<Map<string, number>> {
  const report = await runReport(stores, { workspaceId, visibility: visibilityOf(['admin:admin']) }, {
    ...RANGE, breakdown: 'source', metrics: ['conversions'], attribution_model: model, attribution_window: 7, limit: 500, offset: 0,
  });
  return channelShares(report.rows);
}

const pct = (v: number) => (v * 100).toFixed(1);

export async function runAttributionTruthBench(log: (line: string) => void): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-bench-attribution-'));
  const config = loadConfig({}, { dataDir, demo: false });
  const stores = await openStores(config, createLogger('warn'));
  const columns: string[] = [...ATTRIBUTION_MODELS, WITH_TEST];
  const summary: { scenario: string; errors: Record<string, number | null> }[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const generated = generate(scenario, SHOPPERS ?? scenario.shoppers);
      const workspace = await createWorkspace(stores.db, { name: scenario.name, currency: 'USD', timezone: 'UTC' });
      await store(stores, workspace.id, generated.journeys);
      const truth = trueShares(scenario, generated.reached);
      const shares = new Map<string, Map<string, number>>();
      for (const model of ATTRIBUTION_MODELS) shares.set(model, await modelShares(stores, workspace.id, model));
      const tested = experimentSource(scenario);
      if (tested) {
        const share = trueIncrementalShare(scenario, generated, tested);
        await addLiftTest(stores.db, workspace.id, { source: tested, ...RANGE, incremental_share: share, interval: null }, 'bench');
        shares.set(WITH_TEST, await modelShares(stores, workspace.id, 'data_driven'));
        log(`${scenario.name}: lift test of ${tested}, incremental share ${pct(share)} %`);
      }
      const errors = Object.fromEntries(columns.map((m) => [m, shares.has(m) ? meanAbsoluteError(truth, shares.get(m)!) : null]));
      summary.push({ scenario: scenario.name, errors });
      const buyers = generated.journeys.filter((j) => j.converted).length;
      log(`${scenario.name}: ${scenario.description}; ${generated.journeys.length} shoppers, ${buyers} bought`);
      log(`| source | truth % | ${columns.join(' | ')} |`);
      log(`|---|---|${columns.map(() => '---').join('|')}|`);
      for (const [source, t] of truth) log(`| ${source} | ${pct(t)} | ${columns.map((m) => (shares.has(m) ? pct(shares.get(m)!.get(source) ?? 0) : '')).join(' | ')} |`);
      log('');
    }
    log('Mean absolute error against the true shares, percentage points (lower is closer):');
    log(`| scenario | ${columns.join(' | ')} |`);
    log(`|---|${columns.map(() => '---').join('|')}|`);
    for (const s of summary) log(`| ${s.scenario} | ${columns.map((m) => (s.errors[m] === null ? '' : pct(s.errors[m]!))).join(' | ')} |`);
    return summary;
  } finally {
    await stores.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
