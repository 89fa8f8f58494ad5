import { LRUCache } from 'lru-cache';
import type { Clickhouse } from '../../store/clickhouse.ts';
import { listLiftTests } from '../../store/app/lift-tests.ts';
import { parseBound } from '../../kit/dates.ts';
import { visitorPatterns, type PatternScope } from '../queries/attribution/visitor-patterns.ts';
import { calibratedLift, fitIncremental, type IncrementalFit, type VisitorPattern } from './incremental.ts';
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

/** Conversions of every name make a buyer until the workspace names the counted ones. */
const EVERY_NAME = ['*'] as const;

/**
 * The fit of the request's scope and the workspace's lift tests that apply to it. A test applies
 * when its days (in the request's time zone) meet the conversion range; its measured share becomes
 * a lift through `calibratedLift`. Tests are read at every call (one indexed read), so a test
 * entered now counts at the next request.
 */
export async function learnedIncremental(ctx: ModelContext): Promise<LearnedIncremental> {
  const names = [...(ctx.conversionNames ?? EVERY_NAME)].sort();
  const { scope, key } = await learningScope(ctx, [names]);
  const learned = (await fits.fetch(key, { context: { ch: ctx.ch, scope: { ...scope, conversionNames: names } } }))!;
  const zone = ctx.scope.range.timeZone;
  const convEnd = ctx.scope.range.endMs + (ctx.attribution.dateMode === 'click' ? ctx.attribution.windowDays * 86_400_000 : 0);
  const calibrations: Calibration[] = [];
  if (learned.fit.method === 'linear_fallback') return { fit: learned.fit, calibrations };
  for (const test of await listLiftTests(ctx.db, ctx.scope.workspaceId)) {
    const startMs = parseBound(test.start_date, 'start', zone)!;
    const endMs = parseBound(test.end_date, 'end', zone)!;
    if (endMs < ctx.scope.range.startMs || startMs > convEnd) continue;
    // A source with no fitted lift has no touchpoint the key sees: nothing to calibrate, nothing to name.
    if (!learned.fit.sources.includes(test.source)) continue;
    calibrations.push({ source: test.source, startMs, endMs, lift: calibratedLift(learned.fit, learned.patterns, test.source, test.incremental_share) });
  }
  return { fit: learned.fit, calibrations };
}
