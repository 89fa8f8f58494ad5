import type { Clickhouse } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import { getSettings } from '../../store/app/workspaces.ts';
import { DAY_MS, dayOf, formatDay, parseBound } from '../../kit/calendar/days.ts';
import { NotFound } from '../../kit/errors.ts';
import { resolveRange, type Range, type RangeText } from '../../kit/calendar/range.ts';
import { UTC } from '../../kit/calendar/zones.ts';
import { ATTRIBUTION_MODELS, MODELS, learnedChain, learnedIncremental, liftsAt, planAttribution, type ModelContext, type ModelName } from '../attribution/index.ts';
import { pixelScope, type Reader } from '../query-scope.ts';
import { countedNames } from '../conversion-names.ts';
import { seesChannel } from '../permissions.ts';
import { ensureExcludedList } from '../queries/settings/excluded-transactions.ts';
import { conversionCredits, type CreditedTouch } from '../queries/attribution/conversion-credits.ts';
import { withAdNames, type NamedTouch } from '../touch-names.ts';

/** Without start_date, a conversion is looked for in the 90 days before today (and today). */
export const EXPLAIN_RANGE_DAYS = 90;

/** Shares and removal effects carry 4 decimals, as fractional conversions do in the report. */
const PLACES = 4;
const round = (v: number) => Math.round(v * 10 ** PLACES) / 10 ** PLACES;

/** What every surface asks beside the range. */
export interface ExplainRequest {
  transaction_id: string;
  attribution_window?: number;
  attribution_date?: string;
  exclude_source?: string[];
}

export interface ConversionExplanation {
  transaction_id: string;
  dt: string;
  revenue: number;
  source: string;
  touchpoints: NamedTouch<CreditedTouch>[];
  credit: Record<ModelName, Record<string, number>>;
  removal_effects: Record<string, number>;
  paths: { converting: number; non_converting: number };
  /**
   * The lift per reporting source (added chance to buy) data_driven used for this conversion: a
   * lift or geo test's when one covers its moment, else the fitted one; its baseline and what the fit stood on.
   */
  lifts: Record<string, number>;
  /** The sources whose lift a test set for this conversion, sorted. */
  calibrated_sources: string[];
  baseline: number;
  fit: { visitors: number; buyers: number; method: string };
  /** This conversion's revenue each source caused under data_driven (its share times the revenue), in the workspace currency. */
  incremental_revenue: Record<string, number>;
}

/** The range a conversion is looked for in, from a request's dates: without start_date, from `EXPLAIN_RANGE_DAYS` days before today. */
export function explainRange(dates: RangeText, now = Date.now()): Range {
  const zone = dates.timezone ?? UTC;
  const start = dates.start_date ?? formatDay(dayOf(now, zone) - EXPLAIN_RANGE_DAYS * DAY_MS);
  return resolveRange({ ...dates, start_date: start }, now);
}

/**
 * Sums a model's weights per reporting source, in the order the sources first appear on the path;
 * under a model with a remainder (data_driven) what the weights leave of 1 is organic's.
 */
function sharesBySource(model: ModelName, sources: readonly string[], weights: readonly number[]): Record<string, number> {
  const shares: Record<string, number> = {};
  sources.forEach((source, i) => (shares[source] = (shares[source] ?? 0) + weights[i]!));
  const rest = 1 - weights.reduce((a, b) => a + b, 0);
  if (MODELS[model].remainder && rest > 1e-9) shares.organic = (shares.organic ?? 0) + rest;
  return Object.fromEntries(Object.entries(shares).filter(([source, share]) => share > 0 || sources.includes(source)).map(([source, share]) => [source, round(share)]));
}

/**
 * Why a conversion was credited (docs/attribution.md, "Explaining one conversion"): its
 * touchpoints, every model's shares side by side (each model through its own module, on the same
 * path as the report), the Markov chain of the request's scope with how many journeys it
 * stood on, and the data-driven lifts this conversion was credited with (the fit of that scope, a
 * test's lift where one covers the conversion's moment), baseline and what the fit stood on. A key that sees some channels only is answered as if the others did not exist: their
 * sessions are not on the path, in the shares or in the chain; a conversion whose touchpoints it
 * sees none of is not found, nor an organic one without read:organic. NotFound when no sale with
 * the transaction id is in scope; InvalidInput and AccessDenied as the report refuses a request.
 */
export async function explainConversion(
  stores: { ch: Clickhouse; db: AppDatabase },
  reader: Reader,
  range: Range,
  request: ExplainRequest,
): Promise<ConversionExplanation> {
  const scope = pixelScope(reader, range);
  const settings = await getSettings(stores.db, reader.workspaceId);
  const attribution = planAttribution(request, settings, reader.visibility);
  await ensureExcludedList(stores.ch, reader.workspaceId, settings.excluded_transaction_ids);
  const visibleChannels = reader.visibility.channels && [...reader.visibility.channels];
  const ctx: ModelContext = {
    ch: stores.ch, db: stores.db, scope, attribution, visibleChannels, excludedTransactions: settings.excluded_transaction_ids,
    conversionNames: countedNames(settings),
  };
  const bound = Object.assign({}, ...(await Promise.all(ATTRIBUTION_MODELS.map((m) => MODELS[m].bind?.(ctx)))));
  const [chain, incremental] = await Promise.all([learnedChain(ctx), learnedIncremental(ctx)]);
  const window = attribution.windowDays * DAY_MS;
  const found = await conversionCredits(stores.ch, {
    workspaceId: reader.workspaceId,
    transactionId: request.transaction_id,
    convStartMs: range.startMs,
    // In click date mode the report books conversions up to a window after the range.
    convEndMs: range.endMs + (attribution.dateMode === 'click' ? window : 0),
    attribution,
    visibleChannels,
    excludedTransactions: settings.excluded_transaction_ids,
    models: ATTRIBUTION_MODELS,
    bound,
  });
  const organic = found !== null && found.touchpoints.length === 0;
  const hidden = organic && (found.touchesInWindow > 0 || !seesChannel(reader.visibility, ''));
  if (!found || hidden) throw new NotFound('Not found');
  const sources = organic ? ['organic'] : found.touchpoints.map((t) => t.source);
  const credit = Object.fromEntries(ATTRIBUTION_MODELS.map((m) => [m, sharesBySource(m, sources, found.weights[m])])) as ConversionExplanation['credit'];
  const fit = incremental.fit;
  const used = liftsAt(incremental, parseBound(found.dt, 'start')!);
  return {
    transaction_id: request.transaction_id,
    dt: found.dt,
    revenue: found.revenueCents / 100,
    source: sources[sources.length - 1]!,
    touchpoints: await withAdNames(stores.ch, reader.workspaceId, found.touchpoints),
    credit,
    removal_effects: Object.fromEntries(chain.sources.map((s, i) => [s, round(chain.removalEffects[i]!)])),
    paths: chain.paths,
    lifts: Object.fromEntries([...used.lifts].map(([source, lift]) => [source, round(lift)])),
    calibrated_sources: used.calibrated,
    baseline: round(fit.baseline),
    fit: { visitors: fit.visitors, buyers: fit.buyers, method: fit.method },
    incremental_revenue: Object.fromEntries(Object.entries(credit.data_driven).filter(([source]) => source !== 'organic')
      .map(([source, share]) => [source, Math.round(share * found.revenueCents) / 100])),
  };
}
