/**
 * Generates the demo shop's traffic one day at a time, in the import row formats
 * (src/collect/row-schemas.ts): sessions of visitors over the channels of catalog.ts with their events,
 * the conversions they end in, the shop's own orders for those purchases (plus a few it took
 * without a pixel match) as Shopify orders, and one ads row per ad and day whose clicks follow
 * the tagged sessions. Over the last weeks, sessions landing on the home page carry the tags of the
 * shop's A/B test (catalog.ts, AB_TEST).
 */
import { formatTimestamp } from '../../collect/fields.ts';
import {
  AB_TEST,
  AD_ECONOMICS,
  adsOf,
  ADS,
  CHANNELS,
  COUPONS,
  CREATOR_RENAME_DATE,
  CREATORS,
  DEMO_HOSTNAME,
  DEVICES,
  EMAIL_CAMPAIGNS,
  EXPENSES,
  HOUR_WEIGHTS,
  PLACES,
  PRODUCTS,
  WEEKDAY_WEIGHTS,
  skuOf,
  type Channel,
  type DemoAd,
  type Place,
} from './catalog.ts';
import { Random } from './random.ts';
import { shopifyOrder, type DemoLine, type DemoOrder, type DemoOrderInput } from './shopify-orders.ts';

type Row = Record<string, unknown>;

export interface DayRows {
  events: Row[];
  conversions: Row[];
  /**
   * Shopify orders as their webhooks deliver them (mapped to orders rows by `demoOrderRow`): an
   * order that changed later (cancelled, restored) comes once per state, oldest first.
   */
  orders: DemoOrder[];
  /** First import of the day's ads rows. */
  ads: Row[];
  /** Restated rows for some of them, imported later: the newest version wins. */
  adRevisions: Row[];
}

interface Visitor {
  id: number;
  place: Place;
  city: string;
  device: string;
  customerId: string;
}

interface Visit {
  channel: Channel;
  storedChannel: string;
  ad: DemoAd | null;
  utm: { utm_source: string; utm_medium: string; utm_campaign: string; utm_content: string; utm_term: string };
  metaKeys: string[];
  metaValues: string[];
  referrer: string;
  creatorCode: string;
}

const DAY_MS = 86_400_000;
const HOUR_ENTRIES = HOUR_WEIGHTS.map((w, hour) => [hour, w] as const);
const CHANNEL_ENTRIES = CHANNELS.map((c) => [c, c.weight] as const);
const PLACE_ENTRIES = PLACES;
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Shopify-like numeric ids: orders around 5.9e12, customers around 7.4e12 (exact as doubles). */
const shopifyOrderId = (number: number) => String(5_940_139_000_000 + number);
const shopifyCustomerId = (n: number) => String(7_460_000_000_000 + n);

export class DemoGenerator {
  private readonly random: Random;
  /**
   * Draws the A/B test's variants apart from `random`, so tagging sessions leaves every other row
   * (and every count and sum) as it was without the test.
   */
  private readonly testRandom: Random;
  private nextSession = 7_100_000_000;
  private nextVisitor = 3_200_000_000;
  private nextCustomer = 10_001;
  private nextOrder = 100_001;
  private readonly recentVisitors: Visitor[] = [];
  private readonly customers: string[] = [];
  private readonly buyers = new Set<string>();

  constructor(
    seed: number,
    private readonly sessionsPerDay: number,
  ) {
    this.random = new Random(seed);
    this.testRandom = new Random(seed + 1);
  }

  /** Everything of the UTC day starting at `dayStart`, up to `until` (ms). */
  day(dayStart: number, dayIndex: number, totalDays: number, until: number): DayRows {
    const r = this.random;
    const rows: DayRows = { events: [], conversions: [], orders: [], ads: [], adRevisions: [] };
    const span = Math.min(DAY_MS, until - dayStart);
    if (span <= 0) return rows;
    const weekday = (new Date(dayStart).getUTCDay() + 6) % 7;
    const trend = 0.85 + 0.25 * (totalDays > 1 ? dayIndex / (totalDays - 1) : 1);
    const sessions = Math.round(this.sessionsPerDay * WEEKDAY_WEIGHTS[weekday]! * trend * r.noise(0.2) * (span / DAY_MS));
    const adClicks = new Map<DemoAd, number>();
    const testRuns = until - dayStart <= AB_TEST.days * DAY_MS;
    for (let i = 0; i < sessions; i++) {
      const start = dayStart + this.startOffset(span);
      const visit = this.visit(isoDate(dayStart));
      if (visit.ad) adClicks.set(visit.ad, (adClicks.get(visit.ad) ?? 0) + 1);
      const firstEvent = rows.events.length;
      const firstConversion = rows.conversions.length;
      this.session(rows, start, visit, until);
      if (testRuns) this.tagTest(rows.events.slice(firstEvent), rows.conversions.slice(firstConversion));
    }
    // Phone orders and checkouts the pixel missed: none to two a day.
    for (let n = r.weighted([[0, 25], [1, 50], [2, 25]] as const); n > 0; n--) this.offlineOrder(rows, dayStart + this.startOffset(span), until);
    // Now and then the owner tries the checkout with Shopify's test gateway.
    if (r.chance(0.08)) this.offlineOrder(rows, dayStart + this.startOffset(span), until, { test: true });
    this.adRows(rows, isoDate(dayStart), adClicks, until - dayStart < 3 * DAY_MS);
    return rows;
  }

  private startOffset(span: number): number {
    const hour = this.random.weighted(HOUR_ENTRIES);
    const offset = hour * 3_600_000 + this.random.int(0, 3_599_999);
    return offset < span ? offset : this.random.int(0, span - 1);
  }

  private visitor(): Visitor {
    const r = this.random;
    if (this.recentVisitors.length > 200 && r.chance(0.22)) return r.pick(this.recentVisitors);
    const place = r.weighted(PLACE_ENTRIES);
    const visitor: Visitor = {
      id: this.nextVisitor++,
      place,
      city: r.pick(place.cities),
      device: r.weighted(DEVICES),
      customerId: '',
    };
    if (this.recentVisitors.length >= 5000) this.recentVisitors[r.int(0, 4999)] = visitor;
    else this.recentVisitors.push(visitor);
    return visitor;
  }

  private visit(date: string): Visit {
    const r = this.random;
    const channel = r.weighted(CHANNEL_ENTRIES);
    const storedChannel = channel.channel === 'creator' && date < CREATOR_RENAME_DATE ? 'influencer' : channel.channel;
    const visit: Visit = {
      channel,
      storedChannel,
      ad: null,
      utm: { utm_source: channel.utmSource, utm_medium: channel.utmMedium, utm_campaign: '', utm_content: '', utm_term: '' },
      metaKeys: [],
      metaValues: [],
      referrer: r.pick(channel.referrers),
      creatorCode: '',
    };
    if (channel.ads) {
      // Untagged clicks happen: about one ad click in eight loses its UTM parameters.
      const ad = r.pick(adsOf(channel.ads));
      visit.ad = ad;
      if (r.chance(0.88)) {
        visit.utm.utm_campaign = slug(ad.campaign_name);
        visit.utm.utm_content = slug(ad.ad_name);
        visit.utm.utm_term = ad.keyword;
      } else {
        visit.utm.utm_source = '';
        visit.utm.utm_medium = '';
      }
      visit.metaKeys.push(channel.clickId!);
      visit.metaValues.push(this.clickId(channel.clickId!));
      if (channel.ads === 'google' && r.chance(0.3)) {
        visit.metaKeys.push('gbraid');
        visit.metaValues.push(r.chance(0.5) ? r.token(24) : '');
      }
    } else if (channel.channel === 'creator') {
      const creator = r.pick(CREATORS);
      visit.creatorCode = creator.code;
      visit.utm.utm_source = creator.handle;
      visit.utm.utm_campaign = 'creator-program';
      visit.metaKeys.push('ref');
      visit.metaValues.push(creator.code);
    } else if (channel.channel === 'email') {
      visit.utm.utm_campaign = r.pick(EMAIL_CAMPAIGNS);
      visit.utm.utm_content = r.pick(['hero-button', 'product-grid', 'footer-link']);
    }
    return visit;
  }

  private clickId(name: string): string {
    const r = this.random;
    switch (name) {
      case 'fbclid':
        return `IwAR${r.token(40)}`;
      case 'gclid':
        return `Cj0KCQ${r.token(50)}`;
      case 'ttclid':
        return `E.C.P.${r.token(30)}`;
      default:
        return r.token(32).toLowerCase();
    }
  }

  private session(rows: DayRows, start: number, visit: Visit, until: number): void {
    const r = this.random;
    const visitor = this.visitor();
    const sessionId = this.nextSession++;
    const base = {
      session_id: sessionId,
      visitor_id: visitor.id,
      visitor_timezone: visitor.place.timezone,
      adv_source: visit.storedChannel,
      adv_campaign_id: visit.ad?.campaign_id ?? '',
      adv_adgroup_id: visit.ad?.adgroup_id ?? '',
      adv_ad_id: visit.ad?.ad_id ?? '',
      adv_asset_group_id: visit.ad?.asset_group_id ?? '',
      ...visit.utm,
      device_type: visitor.device,
      country_code: visitor.place.country,
      city: visitor.city,
      hostname: DEMO_HOSTNAME,
      referrer: visit.referrer,
      entry_meta_keys: visit.metaKeys,
      entry_meta_values: visit.metaValues,
      customer_id: visitor.customerId,
    };
    let at = start;
    const emit = (name: string, pathname: string) => {
      if (at < until) rows.events.push({ ...base, dt: formatTimestamp(new Date(at)), name, pathname });
      at += r.int(4_000, 95_000);
    };
    const featured = r.pick(PRODUCTS);
    const landing = visit.ad || visit.channel.channel === 'creator' ? `/products/${featured.handle}` : r.pick(['/', '/', '/collections/all', '/collections/new']);
    emit('pageview', landing);
    const intent = visit.channel.intent * (visitor.customerId ? 1.5 : 1);
    if (landing.startsWith('/products/') || r.chance(0.5)) emit('view_content', `/products/${featured.handle}`);
    for (let extra = r.weighted([[0, 45], [1, 25], [2, 15], [3, 10], [5, 5]] as const); extra > 0; extra--) {
      const other = r.pick(PRODUCTS);
      emit('pageview', `/products/${other.handle}`);
      if (r.chance(0.6)) emit('view_content', `/products/${other.handle}`);
    }
    if (r.chance(0.012)) emit('contact', '/pages/contact');
    if (r.chance(0.025)) {
      emit('newsletter_signup', landing);
      if (r.chance(0.45)) this.conversion(rows, at, 'lead', base, visitor, 0, '', until);
    }
    if (r.chance(0.003 * intent)) this.conversion(rows, at, 'subscribe', base, visitor, 0, '', until);
    if (!r.chance(0.11 * intent)) return;
    emit('add_to_cart', `/products/${featured.handle}`);
    if (!r.chance(0.6)) return;
    emit('pageview', '/cart');
    emit('initiate_checkout', '/checkout');
    if (!r.chance(0.75)) return;
    emit('add_payment_info', '/checkout/payment');
    if (!r.chance(0.72)) return;
    this.purchase(rows, at, base, visitor, visit, featured, until);
  }

  /**
   * Puts a session that landed on the tested page into a variant of the A/B test, its landing URL's
   * tags added to the entry parameters of its events as the collector keeps them (after the click
   * ids). The variant is drawn once the session's end is known, leaning buyers to the variant.
   */
  private tagTest(events: Row[], conversions: Row[]): void {
    if (events[0]?.pathname !== AB_TEST.landing) return;
    const bought = conversions.some((c) => c.name === 'purchase');
    const variant = this.testRandom.chance(bought ? AB_TEST.buyerLean : 0.5) ? AB_TEST.variant : AB_TEST.control;
    const keys = [...(events[0].entry_meta_keys as string[]), 'ab_test', 'ab_variant'];
    const values = [...(events[0].entry_meta_values as string[]), AB_TEST.id, variant];
    for (const event of events) Object.assign(event, { entry_meta_keys: keys, entry_meta_values: values });
  }

  private customerFor(visitor: Visitor): string {
    const r = this.random;
    if (visitor.customerId) return visitor.customerId;
    // Some buyers come back on another device: a new visitor id, a known customer.
    if (this.customers.length > 20 && r.chance(0.06)) visitor.customerId = r.pick(this.customers);
    else {
      visitor.customerId = shopifyCustomerId(this.nextCustomer++);
      this.customers.push(visitor.customerId);
    }
    return visitor.customerId;
  }

  private purchase(rows: DayRows, at: number, base: Row, visitor: Visitor, visit: Visit, featured: (typeof PRODUCTS)[number], until: number): void {
    const r = this.random;
    const customerId = this.customerFor(visitor);
    const isNew = this.buyers.has(customerId) ? 0 : 1;
    this.buyers.add(customerId);
    const items = [featured, ...Array.from({ length: r.weighted([[0, 60], [1, 28], [2, 12]] as const) }, () => r.pick(PRODUCTS))];
    const subtotal = items.reduce((sum, p) => sum + p.price, 0);
    let coupon = '';
    if (visit.creatorCode && r.chance(0.6)) coupon = `${visit.creatorCode}15`;
    else if (isNew && r.chance(0.2)) coupon = COUPONS.newCustomer;
    else if (r.chance(0.08)) coupon = COUPONS.sale;
    const discount = coupon ? Math.round(subtotal * (coupon === COUPONS.newCustomer ? 0.1 : 0.15)) : 0;
    const shipping = subtotal - discount >= 7500 ? 0 : 595;
    const tax = Math.round((subtotal - discount) * 0.08);
    const revenue = subtotal - discount + shipping + tax;
    const number = this.nextOrder++;
    const orderId = shopifyOrderId(number);
    const lines = items.map((p) => this.line(p));
    // The pixel sends the order id and its items, as the Shopify custom pixel does (docs/integrations.md).
    this.conversion(rows, at, 'purchase', base, visitor, revenue, coupon, until, { transactionId: orderId, customerId, isNew, lines });
    const refunds: DemoOrderInput['refunds'] = [];
    if (r.chance(0.05)) {
      const when = at + r.int(2, 12) * DAY_MS;
      if (when < until) refunds.push({ id: String(number * 10), at: when, amount: r.chance(0.4) ? revenue : Math.round(revenue * 0.4) });
    }
    const placed: DemoOrderInput = {
      id: orderId,
      number,
      at: Math.min(at + r.int(1_000, 20_000), until - 1),
      customerId,
      isNew,
      lines,
      discount,
      coupon,
      city: visitor.city,
      country: visitor.place.country,
      shipping,
      tax,
      refunds,
    };
    const shippingCost = r.int(420, 890);
    // Some shops export their processor fee; the rest falls back to the workspace's fee settings.
    const extras = { shippingCost, ...(r.chance(0.6) ? { paymentFee: Math.round(revenue * 0.029) + 30 } : {}) };
    for (const state of this.lifecycle(placed, until)) rows.orders.push({ order: shopifyOrder(state), ...extras });
  }

  /**
   * The states in which the shop's webhooks deliver an order, oldest first: most are paid and stay
   * so; some are only authorized (captured later, still sales); a few have their payment voided, are
   * cancelled (the authorization voided with them), or are cancelled and restored a day later.
   */
  private lifecycle(placed: DemoOrderInput, until: number): DemoOrderInput[] {
    const fate = this.random.weighted([['paid', 940], ['authorized', 30], ['voided', 6], ['cancelled', 16], ['restored', 8]] as const);
    if (fate === 'paid' || placed.refunds.length > 0) return [placed];
    if (fate === 'authorized') return [{ ...placed, financialStatus: 'authorized' }];
    if (fate === 'voided') return [{ ...placed, financialStatus: 'voided' }];
    const authorized = { ...placed, financialStatus: 'authorized' };
    const cancelledAt = placed.at + this.random.int(1, 30) * 3_600_000;
    if (cancelledAt >= until) return [authorized];
    const cancelled = { ...authorized, financialStatus: 'voided', cancelledAt };
    const restoredAt = cancelledAt + DAY_MS;
    if (fate === 'cancelled' || restoredAt >= until) return [authorized, cancelled];
    return [authorized, cancelled, { ...placed, updatedAt: restoredAt }];
  }

  /** One unit of a product, in one of its variants. */
  private line(item: (typeof PRODUCTS)[number]): DemoLine {
    const variantId = this.random.pick(item.variants);
    return { productId: item.productId, variantId, sku: skuOf(item, variantId), title: item.title, price: item.price };
  }

  private conversion(
    rows: DayRows,
    at: number,
    name: string,
    base: Row,
    visitor: Visitor,
    revenue: number,
    coupon: string,
    until: number,
    sale?: { transactionId: string; customerId: string; isNew: number; lines: DemoLine[] },
  ): void {
    if (at >= until) return;
    rows.conversions.push({
      dt: formatTimestamp(new Date(at)),
      name,
      session_id: base.session_id,
      visitor_id: visitor.id,
      customer_id: sale?.customerId ?? visitor.customerId,
      transaction_id: sale?.transactionId ?? '',
      is_new_customer: sale?.isNew ?? 0,
      transaction_gross_revenue: revenue,
      transaction_currency: 'USD',
      transaction_country_code: visitor.place.country,
      transaction_city: visitor.city,
      hostname: DEMO_HOSTNAME,
      coupon_code: coupon,
      line_items: (sale?.lines ?? []).map((l) => ({
        product_id: l.productId, variant_id: l.variantId, sku: l.sku, title: l.title, quantity: 1, unit_price: l.price,
      })),
    });
  }

  /**
   * An order the pixel never saw (phone order, blocked script): no conversion matches it. A test
   * order (`test`) is the owner trying the checkout: stored, never a sale.
   */
  private offlineOrder(rows: DayRows, at: number, until: number, options: { test?: boolean } = {}): void {
    const r = this.random;
    if (at >= until) return;
    const item = r.pick(PRODUCTS);
    const place = r.weighted(PLACE_ENTRIES);
    const number = this.nextOrder++;
    const order = shopifyOrder({
      id: shopifyOrderId(number),
      number,
      at,
      customerId: shopifyCustomerId(this.nextCustomer++),
      isNew: 1,
      lines: [this.line(item)],
      discount: 0,
      coupon: '',
      city: r.pick(place.cities),
      country: place.country,
      shipping: 0,
      tax: Math.round(item.price * 0.08),
      refunds: [],
      test: options.test,
    });
    rows.orders.push({ order, shippingCost: options.test ? 0 : r.int(420, 890) });
  }

  /** One row per ad and day; clicks follow the day's tagged sessions, cost follows clicks. */
  private adRows(rows: DayRows, date: string, adClicks: Map<DemoAd, number>, recent: boolean): void {
    const r = this.random;
    for (const ad of ADS) {
      const economics = AD_ECONOMICS[ad.source];
      const sessions = adClicks.get(ad) ?? 0;
      const clicks = Math.round(sessions * (1.05 + r.next() * 0.3)) + (sessions === 0 ? r.int(0, 3) : 0);
      const ctr = economics.ctr[0] + r.next() * (economics.ctr[1] - economics.ctr[0]);
      const impressions = clicks === 0 ? r.int(0, 120) : Math.round(clicks / ctr);
      const spend = clicks * r.int(economics.cpc[0], economics.cpc[1]) + (clicks === 0 ? Math.round(impressions * 0.4) : 0);
      const row = {
        dt: date,
        source: ad.source,
        ad_id: ad.ad_id,
        adaccount_id: ad.adaccount_id,
        campaign_id: ad.campaign_id,
        campaign_name: ad.campaign_name,
        adgroup_id: ad.adgroup_id,
        adgroup_name: ad.adgroup_name,
        ad_name: ad.ad_name,
        spend,
        impressions,
        clicks,
        reach: economics.reach ? Math.round(impressions * (0.6 + r.next() * 0.25)) : 0,
      };
      // Platforms restate the last days: the first export shows preliminary numbers, a later export
      // of those days the final ones, and it no longer lists an ad day whose few impressions were
      // withdrawn (invalid traffic): that day ends with no delivery.
      if (recent) {
        rows.ads.push({ ...row, spend: Math.round(spend * 0.9), impressions: Math.round(impressions * 0.93), clicks: Math.round(clicks * 0.95) });
        if (clicks > 0 || !r.chance(0.5)) rows.adRevisions.push(row);
      } else rows.ads.push(row);
    }
  }
}

export function productRows(): Row[] {
  return PRODUCTS.flatMap((p) =>
    p.variants.map((variant) => ({
      product_handle: p.handle,
      variant_id: variant,
      title: p.title,
      image_path_or_url: `https://${DEMO_HOSTNAME}/images/${p.handle}.jpg`,
      cost: p.cost,
    })),
  );
}

/** The shop's fixed monthly costs that fall between the two dates (inclusive, `YYYY-MM-DD`). */
export function expenseRows(from: string, to: string): Row[] {
  const rows: Row[] = [];
  const cursor = new Date(`${from.slice(0, 7)}-01T00:00:00Z`);
  while (isoDate(cursor.getTime()) <= to) {
    for (const expense of EXPENSES) {
      const date = `${isoDate(cursor.getTime()).slice(0, 8)}${String(expense.dayOfMonth).padStart(2, '0')}`;
      if (date >= from && date <= to) rows.push({ dt: date, name: expense.name, amount: expense.amount });
    }
    cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return rows;
}
