/**
 * The ad reports the platforms let a user export, by their English column headers. Each field of
 * an ads row lists the headers that carry it, preferred first (the first one is also what the demo
 * writes). Headers are matched without case; a money header may end in its currency, as Meta
 * writes "Amount spent (USD)". Sources of every name: docs/integrations.md, "Ad platforms".
 */
export type ExportField =
  | 'day'
  | 'day_start'
  | 'day_end'
  | 'account_id'
  | 'campaign_id'
  | 'campaign_name'
  | 'adgroup_id'
  | 'adgroup_name'
  | 'ad_id'
  | 'ad_name'
  | 'spend'
  | 'impressions'
  | 'clicks'
  | 'reach'
  | 'currency';

export const AD_EXPORT_FORMATS = ['meta', 'google', 'tiktok', 'microsoft'] as const;
export type AdExportFormatName = (typeof AD_EXPORT_FORMATS)[number];

export interface AdExportFormat {
  name: AdExportFormatName;
  /** What the ads rows' `source` becomes. */
  source: string;
  label: string;
  columns: Partial<Record<ExportField, string[]>>;
  /** Headers only this platform writes: they weigh more when a file's platform is guessed. */
  markers: string[];
}

export const adExportFormats: Record<AdExportFormatName, AdExportFormat> = {
  meta: {
    name: 'meta',
    source: 'meta',
    label: 'Meta Ads Manager',
    columns: {
      day: ['Day'],
      day_start: ['Reporting starts'],
      day_end: ['Reporting ends'],
      account_id: ['Account ID'],
      campaign_name: ['Campaign name'],
      campaign_id: ['Campaign ID'],
      adgroup_name: ['Ad set name'],
      adgroup_id: ['Ad set ID'],
      ad_name: ['Ad name'],
      ad_id: ['Ad ID'],
      spend: ['Amount spent'],
      impressions: ['Impressions'],
      reach: ['Reach'],
      clicks: ['Clicks (all)', 'Link clicks'],
      currency: ['Currency'],
    },
    markers: ['Amount spent', 'Reporting starts', 'Ad set name', 'Ad set ID'],
  },
  google: {
    name: 'google',
    source: 'google',
    label: 'Google Ads',
    columns: {
      day: ['Day', 'Date'],
      account_id: ['Customer ID'],
      campaign_name: ['Campaign'],
      campaign_id: ['Campaign ID'],
      adgroup_name: ['Ad group'],
      adgroup_id: ['Ad group ID'],
      ad_name: ['Ad name'],
      ad_id: ['Ad ID'],
      currency: ['Currency code'],
      spend: ['Cost'],
      impressions: ['Impr.', 'Impressions'],
      clicks: ['Clicks'],
    },
    markers: ['Impr.', 'Customer ID', 'Ad group', 'Campaign'],
  },
  tiktok: {
    name: 'tiktok',
    source: 'tiktok',
    label: 'TikTok Ads Manager',
    columns: {
      day: ['By Day', 'Date', 'Day'],
      account_id: ['Advertiser ID'],
      campaign_name: ['Campaign name'],
      campaign_id: ['Campaign ID'],
      adgroup_name: ['Ad group name'],
      adgroup_id: ['Ad group ID'],
      ad_name: ['Ad name'],
      ad_id: ['Ad ID'],
      currency: ['Currency'],
      spend: ['Cost', 'Total cost'],
      impressions: ['Impressions'],
      clicks: ['Clicks (destination)', 'Clicks (all)', 'Clicks'],
      reach: ['Reach'],
    },
    markers: ['Ad group name', 'Advertiser ID', 'Clicks (destination)', 'By Day'],
  },
  microsoft: {
    name: 'microsoft',
    source: 'microsoft',
    label: 'Microsoft Advertising',
    columns: {
      day: ['TimePeriod', 'GregorianDate', 'Gregorian date', 'Day'],
      account_id: ['AccountNumber', 'AccountId', 'Account number', 'Account ID'],
      campaign_name: ['CampaignName', 'Campaign name'],
      campaign_id: ['CampaignId', 'Campaign ID'],
      adgroup_name: ['AdGroupName', 'Ad group'],
      adgroup_id: ['AdGroupId', 'Ad group ID'],
      ad_name: ['AdTitle', 'Ad title'],
      ad_id: ['AdId', 'Ad ID'],
      currency: ['CurrencyCode', 'Currency code'],
      spend: ['Spend'],
      impressions: ['Impressions', 'Impr.'],
      clicks: ['Clicks'],
    },
    markers: ['Spend', 'TimePeriod', 'GregorianDate', 'Gregorian date', 'AdGroupName', 'CampaignName', 'AdTitle'],
  },
};

/** The fields a row cannot do without; a file lacking one of their columns is refused. */
export const NEEDED_FIELDS: ExportField[] = ['ad_id', 'spend'];
