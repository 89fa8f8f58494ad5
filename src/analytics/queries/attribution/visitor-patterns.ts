import type { Clickhouse } from '../../../store/clickhouse.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { likePattern, timestampParam } from '../../sql.ts';
import { ORGANIC_CHANNELS } from '../../sources.ts';
import { reportingSourceSql } from '../../dimensions.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql } from '../sessions/session-sql.ts';
import { IDS_CTE, conversionIdentitySql, sessionIdentitySql } from '../../attribution/identity.ts';
import type { VisitorPattern } from '../../attribution/incremental.ts';
import { EXCLUDED_TRANSACTIONS_SQL, excludedListId } from '../settings/excluded-transactions.ts';
import { soldSql } from '../../sales.ts';
import type { ChainScope } from './chain-counts.ts';

export const QUERY_NAME = 'visitor-patterns';

/** What the data-driven fit is learned from: the chain's scope, and the conversion names that make a buyer. */
export interface PatternScope extends ChainScope {
  /** Conversion name patterns (`*` wildcards; `['*']`: every name) whose conversions make a visitor a buyer. */
  conversionNames: readonly string[];
}

const TS = "DateTime64(3, 'UTC')";

/**
 * Every visitor of the scope (visitors sharing a customer id are one) as the set of reporting
 * sources its touchpoints show, counted per set in the engine: only the patterns (at most 2^k
 * rows for k sources) come back. A visitor is in scope with a session started in the scan range
 * (the window before the range, and in click-date mode the window after it too) or a counted
 * conversion in the conversion range; it is a buyer with such a conversion (a sale, not an excluded
 * transaction, of a counted name). Touchpoints are the sessions with a channel, minus organic,
 * excluded and hidden channels; a visitor with none is the empty pattern.
 */
export async function visitorPatterns(ch: Clickhouse, scope: PatternScope): Promise<VisitorPattern[]> {
  const window = scope.attribution.windowDays * DAY_MS;
  const click = scope.attribution.dateMode === 'click';
  const channel = landingField('adv_source');
  const visible = scope.visibleChannels === null ? '' : ` AND ${channel} IN {visible_channels:Array(String)}`;
  const excluded = scope.excludedTransactions.length ? `\n    AND c.transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL}` : '';
  const everyName = scope.conversionNames.includes('*');
  const named = everyName ? '' : '\n    AND (c.name IN {names:Array(String)} OR arrayExists(p -> c.name LIKE p, {name_likes:Array(String)}))';
  const sql = `
WITH
${IDS_CTE}
SELECT arraySort(seen) AS sources, count() AS visitors, countIf(bought = 1) AS buyers
FROM (
  SELECT identity, groupUniqArrayIf(source, source != '') AS seen, max(bought) AS bought
  FROM (
    SELECT ${sessionIdentitySql('s.visitor_id')} AS identity, if(s.touch, ${reportingSourceSql('s.channel')}, '') AS source, toUInt8(0) AS bought
    FROM (
      SELECT ${landingField('visitor_id')} AS visitor_id, ${channel} AS channel,
        ${channel} NOT IN {left_out:Array(String)}${visible} AS touch
      FROM ${SESSIONS_FINAL}
      WHERE ${sessionsStartedSql(`{scan_start:${TS}}`, `{scan_end:${TS}}`)}
    ) AS s
    LEFT JOIN ids ON ids.id_visitor = s.visitor_id
    UNION ALL
    SELECT ${conversionIdentitySql('c')} AS identity, '' AS source, toUInt8(1) AS bought
    FROM conversions AS c
    LEFT JOIN ids ON ids.id_visitor = c.visitor_id
    WHERE c.store_id = {store_id:UInt64} AND c.dt BETWEEN {conv_start:${TS}} AND {conv_end:${TS}} AND ${soldSql('c.transaction_id')}${excluded}${named}
  )
  GROUP BY identity
)
GROUP BY sources`;
  const rows = await ch.query<{ sources: string[]; visitors: string | number; buyers: string | number }>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    scan_start: timestampParam(scope.range.startMs - window),
    scan_end: timestampParam(scope.range.endMs + (click ? window : 0)),
    conv_start: timestampParam(scope.range.startMs),
    conv_end: timestampParam(scope.range.endMs + (click ? window : 0)),
    left_out: [...new Set([...ORGANIC_CHANNELS, ...scope.attribution.excludedChannels])],
    ...(scope.excludedTransactions.length ? { excluded_list: excludedListId(scope.excludedTransactions) } : {}),
    ...(scope.visibleChannels === null ? {} : { visible_channels: [...scope.visibleChannels] }),
    ...(everyName ? {} : {
      names: scope.conversionNames.filter((n) => likePattern(n) === null),
      name_likes: scope.conversionNames.map(likePattern).filter((n): n is string => n !== null),
    }),
  });
  return rows.map((r) => ({ sources: r.sources, visitors: Number(r.visitors), buyers: Number(r.buyers) }));
}
