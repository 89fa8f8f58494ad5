import { LRUCache } from 'lru-cache';
import type { Clickhouse } from '../../store/clickhouse.ts';
import { listLiftTests } from '../../store/app/lift-tests.ts';
import { listGeoTests } from '../../store/app/geo-tests.ts';
import { geoTestResult } from '../geo-test-result.ts';
import { visibilityOf } from '../permissions.ts';
import { parseBound } from '../../kit/calendar/days.ts';
import { visitorPatterns, type PatternScope } from '../queries/attribution/visitor-patterns.ts';
import { calibratedLift, fitIncremental, geoTestShare, type IncrementalFit, type VisitorPattern } from './incremental.ts';
import { learningScope } from './learning-scope.ts';
import type { ModelContext } from './model.ts';

/**
 * The data-driven model's fit for a request (incremental.ts): learned from the visitor patterns of
 * its scope, kept per workspace, scope, counted names and data version like the Markov chain
 * (learning-scope.ts). Each kept fit holds a few numbers per source and the patterns (at most 2^k,
 * in practice a few hundred), so 256 of them stay within a few MB; the least recently used goes first.
 */
const KEPT_FITS = 256;

interface Learned {
  fit: IncrementalFit;
  patterns: VisitorPattern[];
}

const fits = new LRUCache<string, Learned, { ch: Clickhouse; scope: PatternScope }>({
  max: KEPT_FITS,
  fetchMethod: async (_key, _stale, { context }) => {
    const patterns = await visitorPatterns(context.ch, context.scope);
    return { fit: fitIncremental(patterns), patterns };
  },
});

/** A lift an experiment measured, for the conversions between `startMs` and `endMs`. */
export interface Calibration {
  source: string;
  startMs: number;
  endMs: number;
  lift: number;
}

export interface LearnedIncremental {
  fit: IncrementalFit;
  /** Lift tests of the workspace whose days meet the request's conversions, each as the lift it sets. */
  calibrations: Calibration[];
}

/**
 * The lifts data_driven gives a conversion at `atMs`: a source's calibration when a test's days
 * hold that moment (the first in `calibrations`, as the model's SQL takes it), else its fitted
 * lift; and the sources so calibrated, sorted.
 */
export function liftsAt(learned: LearnedIncremental, atMs: number): { lifts: Map<string, number>; calibrated: string[] } {
  const lifts = new Map<string, number>();
  const calibrated: string[] = [];
  learned.fit.sources.forEach((source, i) => {
    const test = learned.calibrations.find((c) => c.source === source && c.startMs <= atMs && atMs <= c.endMs);
    lifts.set(source, test ? test.lift : learned.fit.lifts[i]!);
    if (test) calibrated.push(source);
  });
  return { lifts, calibrated };
}

/**
 * The fit of the request's scope and the workspace's experiments that apply to it: lift tests, and
 * finished geo tests that name a source (their relative lift as a share through `geoTestShare`). A
 * test applies when its days (in the request's time zone) meet the conversion range and its source
 * has a fitted lift; its share becomes a lift through `calibratedLift`. A lift test wins over a geo
 * test for the same days. Tests are read at every call, so a test entered now counts at the next
 * request.
 */
export async function learnedIncremental(ctx: ModelContext): Promise<LearnedIncremental> {
  const names = [...ctx.conversionNames].sort();
  const { scope, key } = await learningScope(ctx, [names]);
  const learned = (await fits.fetch(key, { context: { ch: ctx.ch, scope: { ...scope, conversionNames: names } } }))!;
  const zone = ctx.scope.range.timeZone;
  const convEnd = ctx.scope.range.endMs + (ctx.attribution.dateMode === 'click' ? ctx.attribution.windowDays * 86_400_000 : 0);
  const calibrations: Calibration[] = [];
  if (learned.fit.method === 'linear_fallback') return { fit: learned.fit, calibrations };
  // A test applies when its days meet the conversion range; a source with no fitted lift has no
  // touchpoint the key sees: nothing to calibrate, nothing to name.
  const applies = (source: string, startMs: number, endMs: number) =>
    learned.fit.sources.includes(source) && endMs >= ctx.scope.range.startMs && startMs <= convEnd;
  for (const test of await listLiftTests(ctx.db, ctx.scope.workspaceId)) {
    const startMs = parseBound(test.start_date, 'start', zone)!;
    const endMs = parseBound(test.end_date, 'end', zone)!;
    if (!applies(test.source, startMs, endMs)) continue;
    calibrations.push({ source: test.source, startMs, endMs, lift: calibratedLift(learned.fit, learned.patterns, test.source, test.incremental_share) });
  }
  for (const geo of await finishedGeoTests(ctx, zone, applies)) {
    const share = geoTestShare(geo.relativeLift, learned.patterns, geo.source);
    calibrations.push({ source: geo.source, startMs: geo.startMs, endMs: geo.endMs, lift: calibratedLift(learned.fit, learned.patterns, geo.source, share) });
  }
  return { fit: learned.fit, calibrations };
}

/**
 * The workspace's geo tests that name a source, apply (`applies`) and have ended, with their
 * relative lift; tests without one are left out. Only those that apply are read from the engine.
 */
async function finishedGeoTests(
  ctx: ModelContext,
  zone: string,
  applies: (source: string, startMs: number, endMs: number) => boolean,
): Promise<{ source: string; startMs: number; endMs: number; relativeLift: number }[]> {
  const now = Date.now();
  const out = [];
  for (const test of await listGeoTests(ctx.db, ctx.scope.workspaceId, { limit: 500, offset: 0 })) {
    const source = test.data.source;
    const startMs = parseBound(test.data.start_date, 'start', zone)!;
    const endMs = parseBound(test.data.end_date, 'end', zone)!;
    if (!source || !applies(source, startMs, endMs)) continue;
    // Sales by region, no channel: the reader only names the workspace.
    const result = await geoTestResult(ctx.ch, { workspaceId: ctx.scope.workspaceId, visibility: visibilityOf(['admin:admin']) }, test.data, zone, now);
    if (result.status !== 'completed' || !result.results || result.results.relative_lift === null) continue;
    out.push({ source, startMs, endMs, relativeLift: result.results.relative_lift });
  }
  return out;
}
