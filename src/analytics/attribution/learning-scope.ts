import crypto from 'node:crypto';
import { readDataVersion } from '../../store/app/data-versions.ts';
import type { ChainScope } from '../queries/attribution/chain-counts.ts';
import { excludedListId } from '../queries/settings/excluded-transactions.ts';
import type { ModelContext } from './model.ts';

/**
 * What a model learned from the data (the Markov chain, the incremental fit) is learned from: the
 * request's scope, and a key naming that scope at the workspace's data version
 * (store/app/data-versions.ts). Any change to the workspace's rows or settings raises the version,
 * so a model kept under the key is never older than the data. `extra` adds what else the learning
 * depends on (the counted conversion names).
 */
export async function learningScope(ctx: ModelContext, extra: unknown[] = []): Promise<{ scope: ChainScope; key: string }> {
  const scope: ChainScope = {
    workspaceId: ctx.scope.workspaceId,
    range: ctx.scope.range,
    attribution: ctx.attribution,
    visibleChannels: ctx.visibleChannels,
    excludedTransactions: ctx.excludedTransactions,
  };
  const version = await readDataVersion(ctx.db, scope.workspaceId);
  const sorted = (values: readonly string[] | null) => (values === null ? null : [...values].sort());
  const key = crypto
    .createHash('sha256')
    .update(JSON.stringify([
      scope.workspaceId, version, scope.range.startMs, scope.range.endMs, ctx.attribution.windowDays, ctx.attribution.dateMode,
      sorted(ctx.attribution.excludedChannels), sorted(scope.visibleChannels), excludedListId(scope.excludedTransactions), ...extra,
    ]))
    .digest('base64url');
  return { scope, key };
}
