/**
 * The made-up shop behind the demo: its products, where its visitors come from, and the ad
 * accounts whose campaign/ad-group/ad ids the tagged sessions carry.
 */
import type { AdHierarchy } from '../../analytics/queries/ads/list-ads.ts';

export const DEMO_HOSTNAME = 'demo-store.example';

export interface DemoProduct {
  handle: string;
  /** Shopify-like numeric product id. */
  productId: string;
  title: string;
  /** Price and unit cost in cents. */
  price: number;
  cost: number;
  variants: string[];
}

/** Product ids run beside the variant ids: variant 44870011001 belongs to product 8870011. */
const product = (handle: string, title: string, price: number, cost: number, variantCount: number, first: number): DemoProduct => ({
  handle,
  productId: String(Math.floor(first / 1000) - 36_000_000),
  title,
  price,
  cost,
  variants: Array.from({ length: variantCount }, (_, i) => String(first + i)),
});

/** The SKU of a variant: the handle and the variant's place, `LINEN-SHIRT-2`. */
export const skuOf = (item: DemoProduct, variantId: string) => `${item.handle.toUpperCase()}-${item.variants.indexOf(variantId) + 1}`;

export const PRODUCTS: DemoProduct[] = [
  product('linen-shirt', 'Linen Shirt', 6900, 2100, 3, 44870011001),
  product('merino-crew', 'Merino Crew Sweater', 11900, 3800, 3, 44870012001),
  product('canvas-tote', 'Canvas Tote', 3400, 900, 1, 44870013001),
  product('trail-sneaker', 'Trail Sneaker', 12900, 4700, 4, 44870014001),
  product('wool-beanie', 'Wool Beanie', 2900, 700, 2, 44870015001),
  product('denim-jacket', 'Denim Jacket', 15900, 5600, 3, 44870016001),
  product('organic-tee', 'Organic Cotton Tee', 3200, 850, 4, 44870017001),
  product('rain-shell', 'Packable Rain Shell', 13900, 5100, 3, 44870018001),
  product('leather-belt', 'Leather Belt', 4900, 1500, 2, 44870019001),
  product('summer-dress', 'Summer Dress', 8900, 2600, 3, 44870020001),
  product('chino-shorts', 'Chino Shorts', 5900, 1800, 3, 44870021001),
  product('silk-scarf', 'Silk Scarf', 5400, 1400, 1, 44870022001),
];

/** Where the shop itself is: the city whose daily weather the demo imports. */
export const STORE_PLACE = { country: 'US', city: 'New York' } as const;

export interface Place {
  country: string;
  timezone: string;
  cities: string[];
}

export const PLACES: [Place, number][] = [
  [{ country: 'US', timezone: 'America/New_York', cities: ['New York', 'Boston', 'Philadelphia', 'Miami'] }, 30],
  [{ country: 'US', timezone: 'America/Chicago', cities: ['Chicago', 'Austin', 'Minneapolis'] }, 12],
  [{ country: 'US', timezone: 'America/Los_Angeles', cities: ['Los Angeles', 'San Francisco', 'Seattle', 'Portland'] }, 16],
  [{ country: 'CA', timezone: 'America/Toronto', cities: ['Toronto', 'Montreal', 'Ottawa'] }, 8],
  [{ country: 'GB', timezone: 'Europe/London', cities: ['London', 'Manchester', 'Bristol'] }, 12],
  [{ country: 'DE', timezone: 'Europe/Berlin', cities: ['Berlin', 'Munich', 'Hamburg'] }, 8],
  [{ country: 'NL', timezone: 'Europe/Amsterdam', cities: ['Amsterdam', 'Utrecht'] }, 4],
  [{ country: 'FR', timezone: 'Europe/Paris', cities: ['Paris', 'Lyon'] }, 4],
  [{ country: 'AU', timezone: 'Australia/Sydney', cities: ['Sydney', 'Melbourne'] }, 6],
];

export const DEVICES: [string, number][] = [
  ['mobile', 62],
  ['desktop', 33],
  ['tablet', 5],
];

/** Ad platforms as the `source` of ads rows; `bing` is the legacy spelling some accounts still report. */
export type AdSource = 'meta' | 'google' | 'tiktok' | 'microsoft' | 'bing';

export interface DemoAd extends AdHierarchy {
  source: AdSource;
  /** Performance-max style campaigns also carry their asset group (the same id as the ad group here). */
  asset_group_id: string;
  /** Search keyword for utm_term, when the platform is a search engine. */
  keyword: string;
}

interface AccountPlan {
  source: AdSource;
  adaccount_id: string;
  idBase: bigint;
  campaigns: { name: string; adgroups: string[]; ads: string[]; pmax?: boolean; keywords?: string[] }[];
}

const ACCOUNTS: AccountPlan[] = [
  {
    source: 'meta',
    adaccount_id: 'act_1029384756',
    idBase: 120210000000000000n,
    campaigns: [
      { name: 'Prospecting - Broad', adgroups: ['US 25-44', 'Lookalike 1%'], ads: ['UGC video - Summer', 'Carousel - Bestsellers'] },
      { name: 'Retargeting - 30d', adgroups: ['Cart abandoners', 'Viewed product'], ads: ['Dynamic - Catalog', 'Static - Free shipping'] },
      { name: 'Launch - Rain Shell', adgroups: ['Outdoor interests'], ads: ['Video - Storm test', 'Reel - Packing'] },
    ],
  },
  {
    source: 'google',
    adaccount_id: '123-456-7890',
    idBase: 21000000000n,
    campaigns: [
      { name: 'Search - Brand', adgroups: ['Brand exact'], ads: ['RSA - Brand'], keywords: ['demo store', 'demo store shirts'] },
      { name: 'Search - Generic', adgroups: ['Linen shirts', 'Rain jackets'], ads: ['RSA - Linen', 'RSA - Rain'], keywords: ['linen shirt men', 'packable rain jacket', 'merino sweater'] },
      { name: 'Performance Max - All products', adgroups: ['All products'], ads: ['PMax - Feed'], pmax: true },
    ],
  },
  {
    source: 'tiktok',
    adaccount_id: '7012345678901234567',
    idBase: 1790000000000000000n,
    campaigns: [
      { name: 'Spark Ads - Creators', adgroups: ['Gen Z fashion', 'Outdoor'], ads: ['Spark - Try-on haul', 'Spark - Styling tips'] },
      { name: 'Conversions - Summer', adgroups: ['Broad'], ads: ['In-feed - Dress twirl'] },
    ],
  },
  {
    source: 'microsoft',
    adaccount_id: 'F1234567',
    idBase: 51000000000n,
    campaigns: [
      { name: 'Search - Brand (Microsoft)', adgroups: ['Brand'], ads: ['RSA - Brand MS'], keywords: ['demo store'] },
      { name: 'Shopping - All products', adgroups: ['All products'], ads: ['Product ad'] },
    ],
  },
  {
    source: 'bing',
    adaccount_id: 'B7654321',
    idBase: 52000000000n,
    campaigns: [{ name: 'Legacy Bing Search', adgroups: ['Generic'], ads: ['Text ad - Generic'], keywords: ['linen clothing'] }],
  },
];

function buildAds(): DemoAd[] {
  const ads: DemoAd[] = [];
  for (const account of ACCOUNTS) {
    let serial = 1n;
    const nextId = () => String(account.idBase + serial++ * 1013n);
    for (const campaign of account.campaigns) {
      const campaignId = nextId();
      for (const adgroup of campaign.adgroups) {
        const adgroupId = nextId();
        for (const ad of campaign.ads) {
          const keywords = campaign.keywords ?? [''];
          ads.push({
            source: account.source,
            adaccount_id: account.adaccount_id,
            campaign_id: campaignId,
            campaign_name: campaign.name,
            adgroup_id: adgroupId,
            adgroup_name: adgroup,
            ad_id: nextId(),
            ad_name: campaign.pmax ? ad : `${ad} - ${adgroup}`,
            asset_group_id: campaign.pmax ? adgroupId : '',
            keyword: keywords[ads.length % keywords.length] ?? '',
          });
        }
      }
    }
  }
  return ads;
}

export const ADS: DemoAd[] = buildAds();

export const adsOf = (source: AdSource) => ADS.filter((ad) => ad.source === source);

/** Cost per click range (cents), click-through rate and whether the platform reports reach. */
export const AD_ECONOMICS: Record<AdSource, { cpc: [number, number]; ctr: [number, number]; reach: boolean }> = {
  meta: { cpc: [70, 140], ctr: [0.009, 0.018], reach: true },
  google: { cpc: [90, 240], ctr: [0.03, 0.07], reach: false },
  tiktok: { cpc: [40, 95], ctr: [0.006, 0.013], reach: true },
  microsoft: { cpc: [80, 190], ctr: [0.025, 0.06], reach: false },
  bing: { cpc: [80, 170], ctr: [0.02, 0.05], reach: false },
};

/** How a visit arrives: its stored channel, its ad platform (if any), click id, UTM and referrer. */
export interface Channel {
  /** adv_source; `creator` is written as legacy `influencer` before the rename date. */
  channel: string;
  weight: number;
  ads?: AdSource;
  clickId?: string;
  utmSource: string;
  utmMedium: string;
  referrers: string[];
  /** How much more likely than average a visit on this channel buys. */
  intent: number;
}

export const CHANNELS: Channel[] = [
  { channel: 'facebook', weight: 17, ads: 'meta', clickId: 'fbclid', utmSource: 'facebook', utmMedium: 'paid_social', referrers: ['https://l.facebook.com/', 'https://m.facebook.com/'], intent: 0.9 },
  { channel: 'instagram', weight: 10, ads: 'meta', clickId: 'fbclid', utmSource: 'instagram', utmMedium: 'paid_social', referrers: ['https://l.instagram.com/'], intent: 0.85 },
  { channel: 'google', weight: 21, ads: 'google', clickId: 'gclid', utmSource: 'google', utmMedium: 'cpc', referrers: ['https://www.google.com/'], intent: 1.35 },
  { channel: 'tiktok', weight: 8, ads: 'tiktok', clickId: 'ttclid', utmSource: 'tiktok', utmMedium: 'paid_social', referrers: ['https://www.tiktok.com/', ''], intent: 0.6 },
  { channel: 'microsoft', weight: 3, ads: 'microsoft', clickId: 'msclkid', utmSource: 'bing', utmMedium: 'cpc', referrers: ['https://www.bing.com/'], intent: 1.2 },
  { channel: 'bing', weight: 1.5, ads: 'bing', clickId: 'msclkid', utmSource: 'bing', utmMedium: 'cpc', referrers: ['https://www.bing.com/'], intent: 1.1 },
  { channel: 'creator', weight: 5, clickId: 'ref', utmSource: 'creator', utmMedium: 'creator', referrers: ['https://www.instagram.com/', 'https://www.youtube.com/', ''], intent: 1.1 },
  { channel: 'email', weight: 7, utmSource: 'klaviyo', utmMedium: 'email', referrers: [''], intent: 1.6 },
  { channel: '', weight: 27.5, utmSource: '', utmMedium: '', referrers: ['', '', 'https://www.google.com/', 'https://duckduckgo.com/', 'https://www.reddit.com/'], intent: 1 },
];

/** The date the creator channel was renamed: earlier rows carry `influencer`. */
export const CREATOR_RENAME_DATE = '2026-07-24';

export const CREATORS = [
  { name: 'Maya', code: 'MAYA', handle: 'maya.styles' },
  { name: 'Jonas', code: 'JONAS', handle: 'jonasoutdoors' },
  { name: 'Lena', code: 'LENA', handle: 'lena.wears' },
  { name: 'Theo', code: 'THEO', handle: 'theo_fits' },
];

export const EMAIL_CAMPAIGNS = ['weekly-newsletter', 'abandoned-cart', 'welcome-series', 'summer-sale'];

export const COUPONS = { newCustomer: 'WELCOME10', sale: 'SUMMER15' } as const;

/**
 * The A/B test the shop runs on its home page's hero image over the demo's last weeks: a storefront
 * test app splits the sessions that land on `/` between the control (the studio photo) and a
 * lifestyle photo and tags their landing URL with `ab_test` and `ab_variant`. Of the sessions that
 * buy, `buyerLean` (54%) saw the lifestyle photo against half of the others: about a sixth more of
 * its sessions buy, a modest lift that a few weeks of traffic cannot quite prove.
 */
export const AB_TEST = { id: 'home-hero-photo', control: 'control', variant: 'lifestyle', days: 21, landing: '/', buyerLean: 0.54 } as const;

export const EXPENSES: { name: string; amount: number; dayOfMonth: number }[] = [
  { name: 'Shop platform plan', amount: 7900, dayOfMonth: 1 },
  { name: 'Email marketing tool', amount: 15000, dayOfMonth: 3 },
  { name: 'Agency retainer', amount: 250000, dayOfMonth: 15 },
];

/** Hour-of-day traffic weights (UTC). */
export const HOUR_WEIGHTS = [
  0.35, 0.25, 0.18, 0.14, 0.14, 0.22, 0.4, 0.65, 0.85, 1, 1.05, 1.1, 1.15, 1.1, 1.05, 1.05, 1.1, 1.2, 1.35, 1.45, 1.4, 1.2, 0.9, 0.55,
];

/** Monday .. Sunday. */
export const WEEKDAY_WEIGHTS = [1, 0.97, 0.98, 1, 1.05, 1.12, 1.08];
