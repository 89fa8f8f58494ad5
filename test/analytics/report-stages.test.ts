/**
 * The report's stages on their own, as Plausible tests its parser and builder: date bounds, the
 * plan (every choice made, every refusal with its kind and message) and the shape of the one
 * SQL statement. The shape is pinned on purpose: ClickHouse spends about half of a report's time
 * analysing the statement (docs/performance.md), so a new query level or CTE should show in review.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBound } from '../../src/kit/calendar/days.ts';
import { planReport, type ReportRequest } from '../../src/analytics/report/plan.ts';
import { DomainError } from '../../src/kit/errors.ts';
import { buildReportSql } from '../../src/analytics/report/build-sql.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';
import { PIXEL_SOURCES } from '../../src/analytics/sources.ts';
import { DEFAULT_SETTINGS, type WorkspaceSettings } from '../../src/store/app/settings.ts';

const RANGE = { startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2026, 2, 31, 23, 59, 59, 999), timeZone: 'UTC' };
const STORE = 987_654_321;

function plan(request: ReportRequest, scopes = ['admin:admin'], settings: Partial<WorkspaceSettings> = {}) {
  return planReport({ workspaceId: STORE, visibility: visibilityOf(scopes), settings: { ...DEFAULT_SETTINGS, ...settings }, range: RANGE, request, nowMs: RANGE.endMs });
}

function refusal(request: ReportRequest, scopes?: string[]): { kind: string; message: string } {
  try {
    plan(request, scopes);
  } catch (error) {
    assert.ok(error instanceof DomainError);
    return { kind: error.kind, message: error.message };
  }
  assert.fail('the plan was accepted');
}

describe('parseBound', () => {
  test('a bare day is its first or its last millisecond', () => {
    assert.equal(parseBound('2026-03-01', 'start'), Date.UTC(2026, 2, 1));
    assert.equal(parseBound('2026-03-01', 'end'), Date.UTC(2026, 2, 2) - 1);
  });

  test('a timestamp is used as given, its offset applied', () => {
    assert.equal(parseBound('2026-03-01 10:20:30', 'end'), Date.UTC(2026, 2, 1, 10, 20, 30));
    assert.equal(parseBound('2026-03-01T10:20:30.250Z', 'start'), Date.UTC(2026, 2, 1, 10, 20, 30, 250));
    assert.equal(parseBound('2026-03-01T10:20:30+02:00', 'start'), Date.UTC(2026, 2, 1, 8, 20, 30));
    assert.equal(parseBound('2026-03-01T23:30:00-0130', 'start'), Date.UTC(2026, 2, 2, 1, 0, 0));
  });

  test('days that do not exist and malformed values are refused', () => {
    for (const value of ['2026-02-29', '2024-02-30', '2026-13-01', '2026-00-10', '1969-12-31', '2300-01-01', '2026-3-1',
      '2026-03-01 24:00:00', '2026-03-01 10:60:00', '2026-03-01T10:00:00+24:00', 'yesterday', '', ' 2026-03-01']) {
      assert.equal(parseBound(value, 'start'), null, value);
    }
    assert.equal(parseBound('2024-02-29', 'start'), Date.UTC(2024, 1, 29));
  });
});

describe('planReport', () => {
  test('what the request leaves out comes from the workspace settings', () => {
    const p = plan({}, ['admin:admin'], { attribution_model: 'linear', attribution_window: 28, attribution_date: 'click', ignore_sources: ['email'] });
    assert.deepEqual([p.attribution.model, p.attribution.windowDays, p.attribution.dateMode], ['linear', 28, 'click']);
    assert.deepEqual(p.attribution.excludedSources, ['email']);
    assert.deepEqual([p.limit, p.offset, p.breakdown, p.interval, p.channels], [100, 0, null, null, null]);
    assert.deepEqual(p.metrics, ['spend', 'revenue', 'roas', 'conversions', 'sessions']);
  });

  test('the request wins over the settings; exclude_source replaces ignore_sources', () => {
    const p = plan({ attribution_model: 'u_shaped', attribution_window: 90, exclude_source: ['creator'] }, ['admin:admin'], { ignore_sources: ['email'] });
    assert.deepEqual([p.attribution.model, p.attribution.windowDays], ['u_shaped', 90]);
    assert.deepEqual(p.attribution.excludedSources, ['creator']);
    assert.deepEqual(p.attribution.excludedChannels.sort(), ['creator', 'influencer']);
  });

  test('a source filter becomes the raw channels behind it; a restricted key sees only its own', () => {
    assert.deepEqual(plan({ source: ['meta'] }).channels?.sort(), ['audience_network', 'facebook', 'instagram', 'messenger', 'meta', 'threads']);
    assert.deepEqual(plan({}, ['read:google', 'read:tiktok']).channels?.sort(), ['google', 'tiktok']);
  });

  test('limit is clamped to 500 and metrics are de-duplicated', () => {
    const p = plan({ limit: 9000, offset: 20, metrics: ['revenue', 'revenue', 'spend'] });
    assert.deepEqual([p.limit, p.offset, p.metrics], [500, 20, ['revenue', 'spend']]);
  });

  test('unattributed orders and expenses only when the report covers the whole store', () => {
    const all = { include_unattributed: true };
    assert.equal(plan({ metrics: ['net_profit'] }, ['admin:admin'], all).includeUnattributed, true);
    assert.equal(plan({ metrics: ['net_profit'] }, ['admin:admin'], all).includeExpenses, true);
    assert.equal(plan({ source: ['google'] }, ['admin:admin'], all).includeUnattributed, false);
    // Platform orders are purchases: they stand in the report when it counts purchases, not leads.
    assert.equal(plan({ name: 'purchase' }, ['admin:admin'], all).includeUnattributed, true);
    assert.equal(plan({ name: 'lead' }, ['admin:admin'], all).includeUnattributed, false);
    assert.equal(plan({ metrics: ['net_profit'] }, ['read:google', 'read:profit'], all).includeExpenses, false);
    assert.equal(plan({ metrics: ['revenue'] }).includeExpenses, false);
  });

  test('refusals carry the contract status and message, bad input before permissions', () => {
    assert.deepEqual(refusal({ attribution_model: 'best' }), {
      kind: 'invalid_input', message: 'Invalid attribution_model: best. Accepted values: last_click, first_click, linear, u_shaped, total_impact, any_click, markov, data_driven',
    });
    assert.equal(refusal({ attribution_window: 3 }).message, 'Invalid attribution_window: 3. Accepted values: 1, 7, 28, 90, 180, 365');
    assert.equal(refusal({ breakdown: 'planet' }).kind, 'invalid_input');
    assert.equal(refusal({ metrics: ['happiness'] }).kind, 'invalid_input');
    assert.deepEqual(refusal({ limit: 0 }), { kind: 'invalid_input', message: 'limit must be a positive integer' });
    assert.deepEqual(refusal({ offset: -1 }), { kind: 'invalid_input', message: 'offset must be a non-negative integer' });
    assert.deepEqual(refusal({ metrics: ['net_profit'] }, ['read:google']), { kind: 'access_denied', message: 'You do not have access to profit metrics' });
    assert.deepEqual(refusal({ source: ['meta'] }, ['read:google']), { kind: 'access_denied', message: 'You do not have access to the requested sources' });
    assert.deepEqual(refusal({}, ['read:profit']), { kind: 'access_denied', message: 'You do not have access to pixel data' });
    assert.deepEqual(refusal({ exclude_source: ['facebook'] }, ['read:google']), { kind: 'access_denied', message: 'You do not have access to the requested sources' });
    assert.deepEqual(refusal({ exclude_source: ['myspace'] }, ['read:google']), {
      kind: 'invalid_input', message: `Invalid exclude_source: myspace. Accepted values: ${PIXEL_SOURCES.join(', ')}`,
    });
    assert.equal(refusal({ exclude_source: ['facebook'], breakdown: 'planet' }, ['read:google']).kind, 'invalid_input');
    assert.equal(refusal({ source: ['meta'], attribution_model: 'best' }, ['read:google']).kind, 'invalid_input');
  });
});

describe('the report SQL', () => {
  /** SELECT count, the deepest parenthesis level a SELECT stands at, and the CTE names in order. */
  function shape(request: ReportRequest, settings: Partial<WorkspaceSettings> = {}) {
    const { sql, params } = buildReportSql(plan(request, ['admin:admin'], settings));
    let depth = 0;
    let deepest = 0;
    let selects = 0;
    for (const token of sql.match(/\(|\)|\bSELECT\b/g) ?? []) {
      if (token === '(') depth++;
      else if (token === ')') depth--;
      else {
        selects++;
        deepest = Math.max(deepest, depth);
      }
    }
    const ctes = [...sql.matchAll(/^(\w+) AS \($/gm)].map((m) => m[1]);
    return { sql, params, shape: { selects, deepest, ctes } };
  }

  const CTES = ['session_rows', 'ids', 'conv', 'paths', 'credits'];

  test('one statement of five CTEs; ads, sessions and credits as three branches', () => {
    // Eleven selects, one of them the ids of the orders that are no sale (src/analytics/sales.ts).
    for (const request of [{ breakdown: 'campaign' }, { attribution_model: 'linear' }, { attribution_model: 'any_click', breakdown: 'source', interval: 'week' }] as ReportRequest[]) {
      assert.deepEqual(shape(request).shape, { selects: 11, deepest: 2, ctes: CTES }, JSON.stringify(request));
    }
  });

  test('a single-touch model whose touches nothing reads credits the conversions themselves, without paths', () => {
    for (const request of [{}, { interval: 'day' }, { attribution_model: 'first_click', breakdown: 'city' }] as ReportRequest[]) {
      assert.deepEqual(shape(request).shape, { selects: 8, deepest: 2, ctes: ['session_rows', 'conv', 'credits'] }, JSON.stringify(request));
    }
    // Click dates, a source filter, a drill-down or a key of the touch read the touch credited.
    for (const request of [{ attribution_date: 'click' }, { source: ['meta'] }, { campaign: 'c1', breakdown: 'source' }, { breakdown: 'utm_source' }] as ReportRequest[]) {
      assert.deepEqual(shape(request).shape.ctes, CTES, JSON.stringify(request));
    }
  });

  test('profit metrics add the platform orders join; unattributed orders add one branch', () => {
    const bySource = { breakdown: 'source' };
    assert.deepEqual(shape({ ...bySource, metrics: ['net_profit'] }).shape, { selects: 13, deepest: 2, ctes: CTES });
    // The branch, and the pixel's transaction ids read once per order identifier (id and name).
    assert.deepEqual(shape(bySource, { include_unattributed: true }).shape, { selects: 14, deepest: 2, ctes: CTES });
    assert.deepEqual(shape({ ...bySource, metrics: ['net_profit'] }, { new_customer_correction: true }).shape, { selects: 16, deepest: 3, ctes: CTES });
  });

  test('no value is written into the SQL text: the store, the dates and the settings are bound', () => {
    const { sql, params } = shape({ metrics: ['net_profit'], breakdown: 'source' }, { payment_fee_percent: 2.9, payment_fee_fixed: 31 });
    for (const literal of [String(STORE), '2026', '2.9', '31']) assert.ok(!sql.includes(literal), literal);
    assert.equal(params.store_id, STORE);
    assert.equal(params.fee_percent, 2.9);
  });
});
