import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { QueryScope } from '../../query-scope.ts';

export const QUERY_NAME = 'ad-names';

export interface AdIds {
  campaigns: readonly string[];
  adgroups: readonly string[];
  ads: readonly string[];
}

export interface AdNames {
  campaign: Map<string, string>;
  adgroup: Map<string, string>;
  ad: Map<string, string>;
}

const LEVELS = [['campaign', 'campaigns'], ['adgroup', 'adgroups'], ['ad', 'ads']] as const;

/**
 * The name each campaign, ad group and ad id carries in the workspace's ad rows (the newest
 * import's, of its latest day), the names the report's campaign, adgroup and ad rows show, for
 * showing names where sessions only know the ids. Ids no ad row names are left out.
 */
export async function adNames(ch: Clickhouse, scope: Pick<QueryScope, 'workspaceId'>, ids: AdIds): Promise<AdNames> {
  const wanted = Object.fromEntries(LEVELS.map(([, list]) => [list, [...new Set(ids[list].filter(Boolean))]])) as Record<(typeof LEVELS)[number][1], string[]>;
  const names: AdNames = { campaign: new Map(), adgroup: new Map(), ad: new Map() };
  const asked = LEVELS.filter(([, list]) => wanted[list].length > 0);
  if (!asked.length) return names;
  const sql = asked
    .map(([level, list]) => `
SELECT '${level}' AS level, ${level}_id AS id, argMax(${level}_name, (dt, version)) AS name
FROM ads
WHERE store_id = {store_id:UInt64} AND ${level}_id IN {${list}:Array(String)} AND ${level}_name != ''
GROUP BY ${level}_id`)
    .join('\nUNION ALL');
  const rows = await ch.query<{ level: keyof AdNames; id: string; name: string }>(QUERY_NAME, sql, { store_id: scope.workspaceId, ...wanted });
  for (const row of rows) names[row.level].set(row.id, row.name);
  return names;
}
