import { rangeDays } from '../../../kit/calendar/range.ts';
import { Conditions } from '../../sql.ts';
import type { QueryScope } from '../../query-scope.ts';

/** Ad-hierarchy filters of an ads read, beside the scope (whose channels are `ads.source` values). */
export interface AdFilters {
  adaccountId?: string;
  campaignId?: string;
  adgroupId?: string;
  adId?: string;
}

/**
 * WHERE of an `ads FINAL` read: the newest import per (workspace, dt, source, ad) is the only one
 * left. An ads row is a day of the ad account's own calendar, so it is read on the range's calendar days.
 */
export function adConditions(scope: QueryScope, filters: AdFilters): Conditions {
  return new Conditions()
    .add('store_id = {store_id:UInt64}', { store_id: scope.workspaceId })
    .add('dt BETWEEN {day_start:Date} AND {day_end:Date}', rangeDays(scope.range))
    .addIf(scope.channels, 'source IN {channels:Array(String)}', (v) => ({ channels: v }))
    .addIf(filters.adaccountId, 'adaccount_id = {adaccount_id:String}', (v) => ({ adaccount_id: v }))
    .addIf(filters.campaignId, 'campaign_id = {campaign_id:String}', (v) => ({ campaign_id: v }))
    .addIf(filters.adgroupId, 'adgroup_id = {adgroup_id:String}', (v) => ({ adgroup_id: v }))
    .addIf(filters.adId, 'ad_id = {ad_id:String}', (v) => ({ ad_id: v }));
}
