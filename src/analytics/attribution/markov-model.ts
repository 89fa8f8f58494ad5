import { letSql, perElement, type AttributionModel } from './model.ts';
import { learnedChain } from './chain.ts';

const SOURCES = '{mk_sources:Array(String)}';
const EFFECTS = '{mk_effects:Array(Float64)}';

/** A touch is in the chain when its reporting source is a state and its raw channel one the key sees. */
const inChain = (t: string) =>
  `(has(${SOURCES}, ${t}.source) AND ({mk_restricted:UInt8} = 0 OR has({mk_channels:Array(String)}, ${t}.channel)))`;
const effect = (source: string) => `${EFFECTS}[indexOf(${SOURCES}, ${source})]`;

/**
 * Markov (docs/attribution.md, "markov"): a first-order Markov chain of the scope's
 * journeys (chain.ts, markov.ts) gives each reporting source a removal effect; a conversion's credit
 * is split over the distinct sources of its path in proportion to their effects (equally when they
 * sum to 0), each source's share on its last touchpoint in the path. A path with no touch in the
 * chain (only organic touches, or only channels the key does not see) gives everything to its last
 * organic touch, else to its last touch. `bind` learns the chain before the report runs.
 */
export const markov: AttributionModel = {
  name: 'markov',
  summary: "each platform's share in proportion to its removal effect in a Markov chain of the scope's journeys",
  weights: (path) => {
    const keys = `arrayMap(mk_t -> if(${inChain('mk_t')}, mk_t.source, ''), ${path})`;
    const lastOfSource = `arrayReverse(arrayEnumerateUniq(arrayReverse(mk_keys)))`;
    const chained = `arrayDistinct(arrayFilter(mk_s -> mk_s != '', mk_keys))`;
    const total = `arraySum(mk_s -> ${effect('mk_s')}, mk_chained)`;
    const share = `if(mk_total > 0, ${effect('mk_k')} / mk_total, 1. / mk_count)`;
    const learned = `arrayMap((mk_k, mk_n, mk_total, mk_count) -> if(mk_k != '' AND mk_n = 1, ${share}, 0.), mk_keys, ${lastOfSource}, ${perElement('mk_keys', total)}, ${perElement('mk_keys', 'length(mk_chained)')})`;
    const lastOrganic = letSql('mk_o', `arrayLastIndex(mk_t -> mk_t.source = 'organic', ${path})`, `if(mk_o > 0, mk_o, length(${path}))`);
    const fallback = `arrayMap((mk_i, mk_at) -> if(mk_i = mk_at, 1., 0.), arrayEnumerate(${path}), ${perElement(path, lastOrganic)})`;
    return letSql('mk_keys', keys, letSql('mk_chained', chained, `if(empty(mk_chained), ${fallback}, ${learned})`));
  },
  bind: async (ctx) => {
    const chain = await learnedChain(ctx);
    return {
      mk_sources: chain.sources,
      mk_effects: chain.removalEffects,
      mk_restricted: ctx.visibleChannels === null ? 0 : 1,
      mk_channels: [...(ctx.visibleChannels ?? [])],
    };
  },
};
