/**
 * Names beside ids on a conversion's path (docs/attribution.md, "Explaining one conversion"): the
 * campaign, ad group and ad names the ad rows give the ids a touchpoint carries, as the report's
 * campaign, adgroup and ad rows name them; '' where no ad row names the id.
 */
import type { Clickhouse } from '../store/clickhouse.ts';
import { adNames } from './queries/ads/ad-names.ts';

export interface TouchIds {
  campaign: string;
  adgroup: string;
  ad: string;
}

export type NamedTouch<T extends TouchIds> = T & { campaign_name: string; adgroup_name: string; ad_name: string };

/** `touches` with their names, one lookup for all of them. */
export async function withAdNames<T extends TouchIds>(ch: Clickhouse, workspaceId: number, touches: readonly T[]): Promise<NamedTouch<T>[]> {
  const names = await adNames(ch, { workspaceId }, {
    campaigns: touches.map((t) => t.campaign),
    adgroups: touches.map((t) => t.adgroup),
    ads: touches.map((t) => t.ad),
  });
  return touches.map((t) => ({
    ...t,
    campaign_name: names.campaign.get(t.campaign) ?? '',
    adgroup_name: names.adgroup.get(t.adgroup) ?? '',
    ad_name: names.ad.get(t.ad) ?? '',
  }));
}
