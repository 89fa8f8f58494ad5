import type { Range } from '../../../kit/paging.ts';
import { Conditions, timestampParam } from '../../sql.ts';

export interface AdFilters {
  storeId: number;
  range: Range;
  /** Raw ad-platform values (`ads.source`) to return. */
  channels: string[];
  adaccountId?: string;
  campaignId?: string;
  adgroupId?: string;
  adId?: string;
}

/** WHERE of an `ads FINAL` read: the newest import per (store, dt, source, ad) is the only one left. */
export function adConditions(filters: AdFilters): Conditions {
  return new Conditions()
    .add('store_id = {store_id:UInt64}', { store_id: filters.storeId })
    .add(`dt BETWEEN toDate({start:DateTime64(3, 'UTC')}, 'UTC') AND toDate({end:DateTime64(3, 'UTC')}, 'UTC')`, {
      start: timestampParam(filters.range.startMs),
      end: timestampParam(filters.range.endMs),
    })
    .add('source IN {channels:Array(String)}', { channels: filters.channels })
    .addIf(filters.adaccountId, 'adaccount_id = {adaccount_id:String}', (v) => ({ adaccount_id: v }))
    .addIf(filters.campaignId, 'campaign_id = {campaign_id:String}', (v) => ({ campaign_id: v }))
    .addIf(filters.adgroupId, 'adgroup_id = {adgroup_id:String}', (v) => ({ adgroup_id: v }))
    .addIf(filters.adId, 'ad_id = {ad_id:String}', (v) => ({ ad_id: v }));
}
