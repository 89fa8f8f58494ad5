import type { AttributionModel } from './model.ts';
import { learnedChain } from './chain.ts';

const SOURCES = '{dd_sources:Array(String)}';
const EFFECTS = '{dd_effects:Array(Float64)}';

/** A touch is in the chain when its reporting source is a state and its raw channel one the key sees. */
const inChain = (t: string) =>
  `(has(${SOURCES}, ${t}.source) AND ({dd_restricted:UInt8} = 0 OR has({dd_channels:Array(String)}, ${t}.channel)))`;
const effect = (source: string) => `${EFFECTS}[indexOf(${SOURCES}, ${source})]`;

/**
 * Data-driven (docs/attribution.md, "data_driven"): a first-order Markov chain of the scope's
 * journeys (chain.ts, markov.ts) gives each reporting source a removal effect; a conversion's credit
 * is split over the distinct sources of its path in proportion to their effects (equally when they
 * sum to 0), each source's share on its last touchpoint in the path. A path with no touch in the
 * chain (only organic touches, or only channels the key does not see) gives everything to its last
 * organic touch, else to its last touch. `bind` learns the chain before the report runs.
 */
export const dataDriven: AttributionModel = {
  name: 'data_driven',
  summary: "each platform's share in proportion to its removal effect in a Markov chain of the scope's journeys",
  weights: (path) => {
    const keys = `arrayMap(dd_t -> if(${inChain('dd_t')}, dd_t.source, ''), ${path})`;
    const lastOfSource = `arrayReverse(arrayEnumerateUniq(arrayReverse(${keys})))`;
    const chained = `arrayDistinct(arrayFilter(dd_s -> dd_s != '', ${keys}))`;
    const total = `arraySum(dd_s -> ${effect('dd_s')}, ${chained})`;
    const share = `if(${total} > 0, ${effect('dd_k')} / ${total}, 1. / length(${chained}))`;
    const learned = `arrayMap((dd_k, dd_n) -> if(dd_k != '' AND dd_n = 1, ${share}, 0.), ${keys}, ${lastOfSource})`;
    const lastOrganic = `arrayLastIndex(dd_t -> dd_t.source = 'organic', ${path})`;
    const fallback = `arrayMap(dd_i -> if(dd_i = if(${lastOrganic} > 0, ${lastOrganic}, length(${path})), 1., 0.), arrayEnumerate(${path}))`;
    return `if(empty(${chained}), ${fallback}, ${learned})`;
  },
  bind: async (ctx) => {
    const chain = await learnedChain(ctx);
    return {
      dd_sources: chain.sources,
      dd_effects: chain.removalEffects,
      dd_restricted: ctx.visibleChannels === null ? 0 : 1,
      dd_channels: [...(ctx.visibleChannels ?? [])],
    };
  },
};
