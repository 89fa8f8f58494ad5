import { timestampParam } from '../sql.ts';
import type { QueryParams } from '../../store/clickhouse.ts';
import { letSql, perElement, type AttributionModel } from './model.ts';
import { learnedIncremental } from './incremental-fit.ts';

const SOURCES = '{dd_sources:Array(String)}';
const LIFTS = '{dd_lifts:Array(Float64)}';
const CAL_SOURCES = '{dd_cal_sources:Array(String)}';
const CAL_STARTS = "{dd_cal_starts:Array(DateTime64(3, 'UTC'))}";
const CAL_ENDS = "{dd_cal_ends:Array(DateTime64(3, 'UTC'))}";
const CAL_LIFTS = '{dd_cal_lifts:Array(Float64)}';

/** A touch counts when its reporting source has a lift and its raw channel is one the key sees. */
const fitted = (t: string) =>
  `(has(${SOURCES}, ${t}.source) AND ({dd_restricted:UInt8} = 0 OR has({dd_channels:Array(String)}, ${t}.channel)))`;

/**
 * The lift of `source` for a conversion at `convTs`: a lift test's for its days, else the fitted
 * one. Without a lift test in the bound values there is no lookup at all: the engine would fold it
 * away, but only after analysing it (a tenth of the 8-model statement's analysis, measured).
 */
function liftSql(source: string, convTs: string, bound: QueryParams): string {
  const fitted = `${LIFTS}[indexOf(${SOURCES}, ${source})]`;
  if ((bound.dd_cal_sources as string[]).length === 0) return fitted;
  const test = `arrayFirstIndex((dd_cs, dd_ca, dd_cb) -> dd_cs = ${source} AND ${convTs} BETWEEN dd_ca AND dd_cb, ${CAL_SOURCES}, ${CAL_STARTS}, ${CAL_ENDS})`;
  return `if(${test} > 0, ${CAL_LIFTS}[${test}], ${fitted})`;
}

/**
 * Data-driven (docs/attribution.md, "data_driven"): each reporting source's lift on the chance to
 * buy and the baseline, fitted on every visitor of the scope (incremental.ts). A conversion whose
 * touchpoints show the sources S gives each c in S lift(c) / (baseline + sum of lift over S), on
 * c's last touchpoint in the path; the rest (what would have happened anyway) goes to organic
 * through `remainder`. With too little data to fit (`dd_fallback`) it credits as linear does.
 */
export const dataDriven: AttributionModel = {
  name: 'data_driven',
  summary: "each platform's share of what it added to the chance to buy, fitted on every visitor of the scope; the rest is organic",
  remainder: true,
  weights: (path, convTs, bound) => {
    const keys = `arrayMap(dd_t -> if(${fitted('dd_t')}, dd_t.source, ''), ${path})`;
    // Each source counts once, on its last touch: 1 there, above 1 on its earlier touches.
    const lastOfSource = `arrayReverse(arrayEnumerateUniq(arrayReverse(dd_keys)))`;
    const lifts = letSql('dd_keys', keys, `arrayMap((dd_k, dd_n) -> if(dd_k != '' AND dd_n = 1, ${liftSql('dd_k', convTs, bound)}, 0.), dd_keys, ${lastOfSource})`);
    const total = `({dd_baseline:Float64} + arraySum(dd_ls))`;
    const learned = letSql('dd_ls', lifts, `arrayMap((dd_l, dd_total) -> if(dd_total > 0, dd_l / dd_total, 0.), dd_ls, ${perElement('dd_ls', total)})`);
    return bound.dd_fallback === 1 ? perElement(path, `1. / length(${path})`) : learned;
  },
  bind: async (ctx) => {
    const { fit, calibrations } = await learnedIncremental(ctx);
    return {
      dd_fallback: fit.method === 'linear_fallback' ? 1 : 0,
      dd_sources: fit.sources,
      dd_lifts: fit.lifts,
      dd_baseline: fit.baseline,
      dd_cal_sources: calibrations.map((c) => c.source),
      dd_cal_starts: calibrations.map((c) => timestampParam(c.startMs)),
      dd_cal_ends: calibrations.map((c) => timestampParam(c.endMs)),
      dd_cal_lifts: calibrations.map((c) => c.lift),
      dd_restricted: ctx.visibleChannels === null ? 0 : 1,
      dd_channels: [...(ctx.visibleChannels ?? [])],
    };
  },
  applied: (bound) => ({
    attribution_fallback: bound.dd_fallback === 1 ? 'linear' : null,
    calibrated_sources: [...new Set(bound.dd_cal_sources as string[])].sort(),
  }),
};
