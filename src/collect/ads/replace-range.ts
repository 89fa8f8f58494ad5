/**
 * A newer export or pull of an ad account's days replaces those days (docs/integrations.md, "A
 * newer export or pull replaces its range"). The platforms list only ad days with delivery, so an
 * ad day an older import holds and the newer one no longer lists is no delivery: it gets a row of
 * zeros at the newer version, which wins over the older row like any newer version. Inserting, not
 * deleting, keeps this one plain insert on every deployment (a Distributed table takes no DELETE),
 * and a crash before it leaves the older figures, never a gap.
 */
import type { Clickhouse } from '../../store/clickhouse.ts';

/** The days one source and ad account were imported or pulled for, both ends included (`YYYY-MM-DD`). */
export interface AdRange {
  source: string;
  adaccountId: string;
  since: string;
  until: string;
}

/** Collects, from the rows an export wrote, the days each (source, ad account) covers. */
export class AdRangeTracker {
  private readonly ranges = new Map<string, AdRange>();

  add(row: Record<string, unknown>): void {
    const source = String(row.source);
    const adaccountId = String(row.adaccount_id ?? '');
    const dt = String(row.dt);
    const key = JSON.stringify([source, adaccountId]);
    const range = this.ranges.get(key);
    if (!range) this.ranges.set(key, { source, adaccountId, since: dt, until: dt });
    else {
      if (dt < range.since) range.since = dt;
      if (dt > range.until) range.until = dt;
    }
  }

  list(): AdRange[] {
    return [...this.ranges.values()];
  }
}

const WITHDRAW_SQL = `
INSERT INTO ads (store_id, dt, source, ad_id, adaccount_id, campaign_id, campaign_name, adgroup_id, adgroup_name, ad_name,
  spend, impressions, clicks, reach, version)
SELECT store_id, dt, source, ad_id, adaccount_id, campaign_id, campaign_name, adgroup_id, adgroup_name, ad_name,
  0, 0, 0, 0, {version:UInt64}
FROM ads FINAL
WHERE store_id = {store_id:UInt64} AND source = {source:String} AND adaccount_id = {adaccount_id:String}
  AND dt BETWEEN {since:Date} AND {until:Date}
  AND version < {version:UInt64} AND (spend != 0 OR impressions != 0 OR clicks != 0 OR reach != 0)`;

/**
 * Gives every ad day of the ranges that the write of `version` did not list a row of zeros at that
 * version. Call it after that write is in the table.
 */
export async function withdrawUnlisted(ch: Clickhouse, workspaceId: number, ranges: AdRange[], version: number): Promise<void> {
  for (const range of ranges) {
    await ch.exec(WITHDRAW_SQL, {
      store_id: workspaceId,
      source: range.source,
      adaccount_id: range.adaccountId,
      since: range.since,
      until: range.until,
      version,
    });
  }
}
