import { LRUCache } from 'lru-cache';
import type { Clickhouse } from '../../store/clickhouse.ts';
import { chainCounts, type ChainScope } from '../queries/attribution/chain-counts.ts';
import { solveChain, type SolvedChain } from './markov.ts';
import type { ModelContext } from './model.ts';
import { learningScope } from './learning-scope.ts';

/**
 * The markov model's chain for a request: learned from the stored rows of its scope, kept per
 * workspace, scope and data version (learning-scope.ts), so a kept chain is never older than the data; a repeated
 * request gives the same numbers without reading the journeys again. Requests that need the same
 * chain at the same moment share one computation.
 *
 * Memory is bounded by the number of chains kept: each holds one name and two numbers per
 * reporting source (a few dozen at most: well under 4 KB with its key), so 256 chains stay under
 * about 1 MB per process; the least recently used one goes first.
 */
const KEPT_CHAINS = 256;

interface Learning {
  ch: Clickhouse;
  scope: ChainScope;
}

const chains = new LRUCache<string, SolvedChain, Learning>({
  max: KEPT_CHAINS,
  fetchMethod: async (_key, _stale, { context }) => solveChain(await chainCounts(context.ch, context.scope)),
});

/** The chain the request's scope learns: its sources, removal effects and how many journeys it stood on. */
export async function learnedChain(ctx: ModelContext): Promise<SolvedChain> {
  const { scope, key } = await learningScope(ctx);
  return (await chains.fetch(key, { context: { ch: ctx.ch, scope } }))!;
}
