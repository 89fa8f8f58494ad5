/**
 * Daily ad-level spend from the Meta Marketing API's Insights edge (docs/integrations.md, "Meta
 * Marketing API"): `GET act_<id>/insights?level=ad&time_increment=1` for short ranges, an async
 * report run (`POST act_<id>/insights`, poll `async_status` until `Job Completed`, then read
 * `<run>/insights`) for longer ones, `paging.next` cursors, throttling headers and error codes.
 */
import { z } from 'zod';
import { Invalid } from '../../fields.ts';
import { amountToMinor, parseAdDay } from '../values.ts';
import { AdSyncError, callApi, pause, type ApiAnswer, type ApiSettings, type Verdict } from './call.ts';

export interface MetaCredentials {
  access_token: string;
}

export interface PullRange {
  since: string;
  until: string;
  days: number;
}

/** Ranges longer than this go through an async report run, as Meta advises for large reads. */
const ASYNC_AFTER_DAYS = 7;
const FIELDS = [
  'account_id',
  'account_currency',
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'spend',
  'impressions',
  'clicks',
  'reach',
].join(',');
/** Error codes of Meta's rate limits (app, user, ad account, business use case). */
const THROTTLE_CODES = new Set([4, 17, 32, 613]);
const isThrottle = (code: number) => THROTTLE_CODES.has(code) || (code >= 80000 && code <= 80014);
/** Above this share of a quota (from the throttle headers) the pull slows down before the next call. */
const BUSY_PERCENT = 75;

const metaError = z.object({
  error: z.object({ code: z.number(), message: z.string().max(2000).default(''), error_subcode: z.number().optional() }).passthrough(),
});
const insightsPage = z.object({
  data: z.array(z.record(z.string(), z.unknown())),
  paging: z.object({ next: z.string().optional() }).passthrough().optional(),
});
const reportRun = z.object({ report_run_id: z.string().regex(/^\d{1,30}$/) });
const runStatus = z.object({ async_status: z.string(), async_percent_completion: z.number().optional() });

/** `x-business-use-case-usage`: the longest `estimated_time_to_regain_access` (minutes) and the busiest share. */
function businessUsage(headers: Headers): { regainMs: number; percent: number } {
  let regainMs = 0;
  let percent = 0;
  try {
    const usage = JSON.parse(headers.get('x-business-use-case-usage') ?? '{}') as Record<string, Record<string, number>[]>;
    for (const entries of Object.values(usage)) {
      for (const entry of Array.isArray(entries) ? entries : []) {
        regainMs = Math.max(regainMs, Number(entry.estimated_time_to_regain_access ?? 0) * 60_000 || 0);
        percent = Math.max(percent, Number(entry.call_count) || 0, Number(entry.total_cputime) || 0, Number(entry.total_time) || 0);
      }
    }
  } catch {
    // A header we cannot read tells us nothing.
  }
  return { regainMs, percent };
}

/** `x-fb-ads-insights-throttle`: `{app_id_util_pct, acc_id_util_pct}`. */
function insightsUsage(headers: Headers): number {
  try {
    const usage = JSON.parse(headers.get('x-fb-ads-insights-throttle') ?? '{}') as Record<string, number>;
    return Math.max(Number(usage.app_id_util_pct) || 0, Number(usage.acc_id_util_pct) || 0);
  } catch {
    return 0;
  }
}

function classify(answer: ApiAnswer): Verdict {
  if (answer.status >= 200 && answer.status < 300) return { ok: true };
  const parsed = metaError.safeParse(answer.body);
  if (!parsed.success) {
    return answer.status >= 500 ? { retry: true, afterMs: 0, reason: `HTTP ${answer.status}` } : { fail: `HTTP ${answer.status}` };
  }
  const { code, message, error_subcode } = parsed.data.error;
  if (code === 190) {
    return { fail: `Meta refused the access token (error 190${error_subcode ? `/${error_subcode}` : ''}: ${message}); it has expired or was revoked: create a new token and run ads connect again` };
  }
  if (isThrottle(code) || answer.status === 429) {
    return { retry: true, afterMs: businessUsage(answer.headers).regainMs, reason: `rate limited (Meta error ${code}: ${message})` };
  }
  if (code === 1 || code === 2 || answer.status >= 500) return { retry: true, afterMs: 0, reason: `temporary error (Meta error ${code}: ${message})` };
  return { fail: `Meta error ${code}: ${message}` };
}

export interface MetaPull {
  settings: ApiSettings;
  baseUrl: string;
  account: string;
  credentials: MetaCredentials;
  currency: string;
  digits: number;
}

/** The account id as the Graph API path wants it: `act_<digits>`. */
export function metaAccountPath(account: string): string | null {
  const digits = /^(?:act_)?(\d{1,30})$/.exec(account.trim());
  return digits ? `act_${digits[1]}` : null;
}

/** Yields one ads import row (or the problem of one insights row) per ad and day. */
export async function* pullMeta(pull: MetaPull, range: PullRange): AsyncGenerator<Record<string, unknown> | Invalid> {
  const label = `meta ${pull.account}`;
  const base = new URL(pull.baseUrl.endsWith('/') ? pull.baseUrl : `${pull.baseUrl}/`);
  const token = pull.credentials.access_token;
  const call = async (method: 'GET' | 'POST', url: URL) => {
    const answer = await callApi(pull.settings, label, () => ({ url: url.toString(), init: method === 'GET' ? {} : { method } }), classify);
    const busy = Math.max(insightsUsage(answer.headers), businessUsage(answer.headers).percent);
    if (busy >= BUSY_PERCENT) {
      pull.settings.progress(`${label}: Meta reports ${busy}% of the insights quota used; pausing`);
      await pause(pull.settings, pull.settings.retryBaseMs, label);
    }
    return answer.body;
  };
  const withToken = (url: URL) => {
    url.searchParams.set('access_token', token);
    return url;
  };

  let next: URL;
  const query = {
    level: 'ad',
    time_increment: '1',
    fields: FIELDS,
    time_range: JSON.stringify({ since: range.since, until: range.until }),
    limit: '500',
  };
  if (range.days > ASYNC_AFTER_DAYS) {
    const start = withToken(new URL(`${pull.account}/insights`, base));
    for (const [key, value] of Object.entries(query)) start.searchParams.set(key, value);
    const run = reportRun.safeParse(await call('POST', start));
    if (!run.success) throw new AdSyncError(`${label}: the report run answer has no report_run_id`);
    const id = run.data.report_run_id;
    for (;;) {
      const status = runStatus.safeParse(await call('GET', withToken(new URL(id, base))));
      if (!status.success) throw new AdSyncError(`${label}: report run ${id} answered without async_status`);
      const { async_status, async_percent_completion } = status.data;
      pull.settings.progress(`${label}: report run ${id} ${async_percent_completion ?? 0}% (${async_status})`);
      if (async_status === 'Job Completed') break;
      if (async_status === 'Job Failed' || async_status === 'Job Skipped') throw new AdSyncError(`${label}: report run ${id} ended with "${async_status}"`);
      await pause(pull.settings, pull.settings.retryBaseMs, label);
    }
    next = withToken(new URL(`${id}/insights`, base));
    next.searchParams.set('limit', '500');
  } else {
    next = withToken(new URL(`${pull.account}/insights`, base));
    for (const [key, value] of Object.entries(query)) next.searchParams.set(key, value);
  }

  for (let page = 1; ; page++) {
    const parsed = insightsPage.safeParse(await call('GET', next));
    if (!parsed.success) throw new AdSyncError(`${label}: an insights page is not {data: [...]}`);
    for (const row of parsed.data.data) yield toAdRow(row, pull);
    pull.settings.progress(`${label}: page ${page}, ${parsed.data.data.length} rows`);
    const link = parsed.data.paging?.next;
    if (!link) return;
    next = new URL(link);
    // The cursor link carries the token: follow it only to the API we were configured with.
    if (next.origin !== base.origin) throw new AdSyncError(`${label}: paging.next points to another host (${next.origin})`);
  }
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

function toAdRow(row: Record<string, unknown>, pull: MetaPull): Record<string, unknown> | Invalid {
  const currency = text(row.account_currency).toUpperCase();
  if (currency && currency !== pull.currency) {
    throw new AdSyncError(`meta ${pull.account}: the account reports in ${currency} but the workspace keeps ${pull.currency}`);
  }
  const spend = amountToMinor(text(row.spend) || '0', pull.digits);
  if (spend instanceof Invalid) return new Invalid(`spend: ${spend.message}`);
  const dt = parseAdDay(text(row.date_start));
  if (dt instanceof Invalid) return new Invalid(`date_start: ${dt.message}`);
  return {
    dt,
    source: 'meta',
    ad_id: row.ad_id,
    adaccount_id: text(row.account_id),
    campaign_id: text(row.campaign_id),
    campaign_name: text(row.campaign_name),
    adgroup_id: text(row.adset_id),
    adgroup_name: text(row.adset_name),
    ad_name: text(row.ad_name),
    spend,
    impressions: row.impressions ?? 0,
    clicks: row.clicks ?? 0,
    reach: row.reach ?? 0,
  };
}
