/**
 * Daily ad-level spend from the Google Ads API over REST (docs/integrations.md, "Google Ads
 * API"): an OAuth refresh token exchanged at the token endpoint for an access token, then one
 * GAQL query through `customers/<id>/googleAds:searchStream` with the `developer-token` (and
 * `login-customer-id` for a manager account) headers. `metrics.cost_micros` becomes minor units.
 */
import { z } from 'zod';
import { Invalid } from '../../fields.ts';
import { parseAdDay } from '../values.ts';
import { AdSyncError, callApi, type ApiAnswer, type ApiSettings, type Verdict } from './call.ts';
import type { PullRange } from './meta.ts';

export interface GoogleCredentials {
  developer_token: string;
  client_id: string;
  client_secret: string;
  refresh_token: string;
  /** The manager account the credentials act through; empty when they reach the account directly. */
  login_customer_id: string;
}

export interface GooglePull {
  settings: ApiSettings;
  baseUrl: string;
  tokenUrl: string;
  /** Digits only. */
  customerId: string;
  credentials: GoogleCredentials;
  currency: string;
  digits: number;
}

/** `123-456-7890` or `1234567890` as the API wants it: ten digits. */
export function googleCustomerId(text: string): string | null {
  const digits = text.trim().replace(/-/g, '');
  return /^\d{10}$/.test(digits) ? digits : null;
}

const tokenAnswer = z.object({ access_token: z.string().min(1).max(4096) });
const tokenError = z.object({ error: z.string().max(200), error_description: z.string().max(2000).optional() });
const googleError = z.object({
  error: z.object({ code: z.number().optional(), message: z.string().max(4000).default(''), status: z.string().max(100).default('') }).passthrough(),
});
const idName = z.object({ id: z.string().max(40).optional(), name: z.string().max(1000).optional() }).passthrough();
const resultRow = z
  .object({
    customer: z.object({ id: z.string().optional(), currencyCode: z.string().optional() }).passthrough().optional(),
    campaign: idName.optional(),
    adGroup: idName.optional(),
    adGroupAd: z.object({ ad: idName }).passthrough().optional(),
    metrics: z.object({ costMicros: z.string().optional(), impressions: z.string().optional(), clicks: z.string().optional() }).passthrough().optional(),
    segments: z.object({ date: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();
const streamAnswer = z.array(z.union([z.object({ results: z.array(resultRow).default([]) }).passthrough(), googleError]));

/** Google's `retryDelay` (`"30s"`) in the failure details of a RESOURCE_EXHAUSTED answer, in ms. */
function retryDelayMs(body: unknown): number {
  const found = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(JSON.stringify(body ?? ''));
  return found ? Math.round(Number(found[1]) * 1000) : 0;
}

function classifyGoogle(answer: ApiAnswer): Verdict {
  const body = Array.isArray(answer.body) ? answer.body.find((part) => googleError.safeParse(part).success) : answer.body;
  const failure = googleError.safeParse(body);
  if (answer.status >= 200 && answer.status < 300 && !failure.success) return { ok: true };
  const status = failure.success ? failure.data.error.status : '';
  const message = failure.success ? failure.data.error.message : `HTTP ${answer.status}`;
  if (status === 'RESOURCE_EXHAUSTED' || answer.status === 429) {
    return { retry: true, afterMs: retryDelayMs(body), reason: `rate limited (RESOURCE_EXHAUSTED: ${message})` };
  }
  if (status === 'UNAUTHENTICATED' || answer.status === 401) {
    return { fail: `Google Ads refused the credentials (UNAUTHENTICATED: ${message}); check the developer token and authorise again (ads connect)` };
  }
  if (status === 'UNAVAILABLE' || status === 'INTERNAL' || answer.status >= 500) {
    return { retry: true, afterMs: 0, reason: `temporary error (${status || `HTTP ${answer.status}`}: ${message})` };
  }
  return { fail: `Google Ads error ${status || `HTTP ${answer.status}`}: ${message}` };
}

function classifyToken(answer: ApiAnswer): Verdict {
  if (answer.status >= 200 && answer.status < 300) return { ok: true };
  if (answer.status >= 500) return { retry: true, afterMs: 0, reason: `token endpoint answered HTTP ${answer.status}` };
  const failure = tokenError.safeParse(answer.body);
  const detail = failure.success ? `${failure.data.error}${failure.data.error_description ? `: ${failure.data.error_description}` : ''}` : `HTTP ${answer.status}`;
  return { fail: `Google refused the refresh token (${detail}); authorise again and run ads connect with the new refresh token` };
}

async function accessToken(pull: GooglePull, label: string): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: pull.credentials.refresh_token,
    client_id: pull.credentials.client_id,
    client_secret: pull.credentials.client_secret,
  });
  const answer = await callApi(
    pull.settings,
    label,
    () => ({ url: pull.tokenUrl, init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() } }),
    classifyToken,
  );
  const parsed = tokenAnswer.safeParse(answer.body);
  if (!parsed.success) throw new AdSyncError(`${label}: the token endpoint answered without an access_token`);
  return parsed.data.access_token;
}

/** The GAQL query; the dates come from our own range, never from input text. */
function adSpendQuery(range: PullRange): string {
  return (
    'SELECT customer.id, customer.currency_code, campaign.id, campaign.name, ad_group.id, ad_group.name, ' +
    'ad_group_ad.ad.id, ad_group_ad.ad.name, metrics.cost_micros, metrics.impressions, metrics.clicks, segments.date ' +
    `FROM ad_group_ad WHERE segments.date BETWEEN '${range.since}' AND '${range.until}'`
  );
}

/** Micros of the main unit as minor units, half up (exact: BigInt). */
export function microsToMinor(micros: string, digits: number): number | Invalid {
  if (!/^\d{1,20}$/.test(micros)) return new Invalid(`expected cost micros as digits, got "${micros}"`);
  const per = 10n ** BigInt(6 - digits);
  const minor = (BigInt(micros) + per / 2n) / per;
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : new Invalid('cost too large');
}

export async function* pullGoogle(pull: GooglePull, range: PullRange): AsyncGenerator<Record<string, unknown> | Invalid> {
  const label = `google ${pull.customerId}`;
  const token = await accessToken(pull, label);
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'developer-token': pull.credentials.developer_token,
    'content-type': 'application/json',
  };
  if (pull.credentials.login_customer_id) headers['login-customer-id'] = pull.credentials.login_customer_id;
  const url = `${pull.baseUrl.replace(/\/$/, '')}/customers/${pull.customerId}/googleAds:searchStream`;
  const answer = await callApi(pull.settings, label, () => ({ url, init: { method: 'POST', headers, body: JSON.stringify({ query: adSpendQuery(range) }) } }), classifyGoogle);
  const parsed = streamAnswer.safeParse(answer.body);
  if (!parsed.success) throw new AdSyncError(`${label}: the searchStream answer is not a list of result batches`);
  let rows = 0;
  for (const batch of parsed.data) {
    if (!('results' in batch)) continue;
    for (const result of batch.results) {
      rows++;
      yield toAdRow(result, pull);
    }
  }
  pull.settings.progress(`${label}: ${rows} rows`);
}

function toAdRow(row: z.infer<typeof resultRow>, pull: GooglePull): Record<string, unknown> | Invalid {
  const currency = (row.customer?.currencyCode ?? '').toUpperCase();
  if (currency && currency !== pull.currency) {
    throw new AdSyncError(`google ${pull.customerId}: the account reports in ${currency} but the workspace keeps ${pull.currency}`);
  }
  const spend = microsToMinor(row.metrics?.costMicros ?? '0', pull.digits);
  if (spend instanceof Invalid) return new Invalid(`metrics.cost_micros: ${spend.message}`);
  const dt = parseAdDay(row.segments?.date ?? '');
  if (dt instanceof Invalid) return new Invalid(`segments.date: ${dt.message}`);
  return {
    dt,
    source: 'google',
    ad_id: row.adGroupAd?.ad.id,
    adaccount_id: row.customer?.id ?? pull.customerId,
    campaign_id: row.campaign?.id ?? '',
    campaign_name: row.campaign?.name ?? '',
    adgroup_id: row.adGroup?.id ?? '',
    adgroup_name: row.adGroup?.name ?? '',
    ad_name: row.adGroupAd?.ad.name ?? '',
    spend,
    impressions: row.metrics?.impressions ?? 0,
    clicks: row.metrics?.clicks ?? 0,
    reach: 0,
  };
}
