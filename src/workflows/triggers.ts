/**
 * Each trigger's check (docs/workflows.md, "Triggers"): whether the workflow fires now, with the
 * values it saw, read within the channels the workflow runs with (scope.ts). Schedules always
 * fire; a metric threshold compares the report's metric (of its
 * source and campaign, over its period) with the value, once per period while breached; new
 * conversions are the sale conversions after the newest one the previous evaluation saw; ad
 * fatigue scores the ads over the last 14 complete days.
 */
import type { Stores } from '../store/index.ts';
import type { ThresholdPeriod, WorkflowData, WorkflowTrigger } from '../store/app/workflows.ts';
import { requireEveryChannel, visibleAdChannels, type Visibility } from '../analytics/permissions.ts';
import { getSettings } from '../store/app/workspaces.ts';
import { runReportIn } from '../analytics/report/run.ts';
import { newConversions } from '../analytics/queries/conversions/new-conversions.ts';
import { dailyAdDelivery } from '../analytics/queries/ad-fatigue/daily-ad-delivery.ts';
import { scoreAds } from '../analytics/ad-fatigue.ts';
import { daysRange, rangeDays, type Range } from '../kit/calendar/range.ts';
import { DAY_MS, dayOf } from '../kit/calendar/days.ts';
import { money } from '../kit/numbers.ts';
import { DEFAULT_FATIGUE_SCORE } from './definition.ts';

export interface TriggerCheck {
  fired: boolean;
  values: Record<string, unknown>;
  summary: string;
}

export interface TriggerInput {
  stores: Pick<Stores, 'ch' | 'db'>;
  workspaceId: number;
  timeZone: string;
  workflow: WorkflowData;
  nowMs: number;
  /** What the workflow reads: the channels (and profit) it runs with (scope.ts, runScope). */
  visibility: Visibility;
  /** New conversions are looked for after this instant. */
  conversionsAfterMs: number;
  /** The values of this workflow's previous threshold evaluation (its state), null when none. */
  previousThreshold: ThresholdState | null;
  /** A run by hand (`workflow run`): a breached threshold fires whatever the state. */
  byHand: boolean;
}

/** What a threshold evaluation records that the next one reads: was it breached, over which days. */
export interface ThresholdState {
  breached: boolean;
  start_date: string;
  end_date: string;
}

/** Ads need this many delivery days in the window to be scored. */
const FATIGUE_MIN_DAYS = 6;
const FATIGUE_WINDOW_DAYS = 14;
const FATIGUE_ADS_SHOWN = 10;

/** The calendar days of `zone` a threshold period covers at `nowMs`. */
export function periodRange(period: ThresholdPeriod, nowMs: number, zone: string): Range {
  const today = dayOf(nowMs, zone);
  switch (period) {
    case 'today':
      return daysRange(today, today, zone);
    case 'yesterday':
      return daysRange(today - DAY_MS, today - DAY_MS, zone);
    case 'last_7_days':
      return daysRange(today - 7 * DAY_MS, today - DAY_MS, zone);
  }
}

/**
 * A breach fires once per period: not when the previous evaluation was already breached over the
 * same days (it fired, or one before it did), so it fires again only in a new period or after the
 * metric recovered. A run by hand fires on any breach.
 */
const alreadyAlerted = (input: TriggerInput, start: string, end: string) =>
  !input.byHand && input.previousThreshold?.breached === true && input.previousThreshold.start_date === start && input.previousThreshold.end_date === end;

async function metricThreshold(input: TriggerInput): Promise<TriggerCheck> {
  const { metric, operator, value: threshold, source, campaign, period = 'yesterday' } = input.workflow.trigger as Required<Pick<WorkflowTrigger, 'metric' | 'operator' | 'value'>> & WorkflowTrigger;
  const range = periodRange(period, input.nowMs, input.timeZone);
  const { day_start: start, day_end: end } = rangeDays(range);
  const report = await runReportIn(
    input.stores,
    { workspaceId: input.workspaceId, visibility: input.visibility },
    range,
    { metrics: [metric], ...(source ? { source: [source] } : {}), ...(campaign ? { campaign } : {}) },
    input.nowMs,
  );
  const value = report.totals[metric] ?? null;
  const breached = value !== null && (operator === 'above' ? value > threshold : value < threshold);
  const scope = [source, campaign && `campaign ${campaign}`].filter(Boolean).join(' ');
  const days = start === end ? `on ${start}` : `from ${start} to ${end}`;
  const summary = `${scope ? `${scope} ` : ''}${metric} ${days} was ${value ?? 'not available'}; the threshold is ${operator} ${threshold}`;
  const values = {
    metric, value, operator, threshold, period, start_date: start, end_date: end,
    ...(source ? { source } : {}), ...(campaign ? { campaign } : {}), breached, conversion_names: report.settings_applied.conversion_names,
  };
  return { fired: breached && !alreadyAlerted(input, start, end), values, summary };
}

async function newConversion(input: TriggerInput): Promise<TriggerCheck> {
  // Conversions are order-level data, not split by channel: a narrower workflow cannot count them.
  requireEveryChannel(input.visibility, 'new conversions');
  const { conversion_names: names } = await getSettings(input.stores.db, input.workspaceId);
  const found = await newConversions(input.stores.ch, input.workspaceId, input.conversionsAfterMs, input.nowMs, names);
  const since = new Date(input.conversionsAfterMs).toISOString();
  const through = new Date(found.newest_ms ?? input.conversionsAfterMs).toISOString();
  const revenue = money(found.revenue_cents);
  const summary = found.conversions > 0 ? `${found.conversions} new conversion(s), ${revenue} in revenue, since ${since}` : `no new conversion since ${since}`;
  return { fired: found.conversions > 0, values: { conversions: found.conversions, revenue, since, through, conversion_names: names }, summary };
}

async function adFatigue(input: TriggerInput): Promise<TriggerCheck> {
  const threshold = input.workflow.trigger.value ?? DEFAULT_FATIGUE_SCORE;
  const today = dayOf(input.nowMs, input.timeZone);
  const range = daysRange(today - FATIGUE_WINDOW_DAYS * DAY_MS, today - DAY_MS, input.timeZone);
  const { day_start: start, day_end: end } = rangeDays(range);
  const scored = scoreAds(await dailyAdDelivery(input.stores.ch, { workspaceId: input.workspaceId, range, channels: visibleAdChannels(input.visibility) }), FATIGUE_MIN_DAYS);
  const fatigued = scored.filter((ad) => ad.score !== null && ad.score >= threshold);
  const ads = fatigued.slice(0, FATIGUE_ADS_SHOWN).map(({ source, ad_id, ad_name, score }) => ({ source, ad_id, ad_name, score }));
  const summary = fatigued.length
    ? `${fatigued.length} ad(s) score ${threshold} or more for fatigue from ${start} to ${end}, ${ads[0]!.ad_name || ads[0]!.ad_id} highest (${ads[0]!.score})`
    : `no ad scores ${threshold} or more for fatigue from ${start} to ${end}`;
  return { fired: fatigued.length > 0, values: { threshold, start_date: start, end_date: end, fatigued_ads: fatigued.length, ads }, summary };
}

/** Whether the trigger fires; a schedule always does (on its due time, or when run by hand). */
export async function checkTrigger(input: TriggerInput): Promise<TriggerCheck> {
  switch (input.workflow.trigger.type) {
    case 'daily_schedule':
    case 'weekly_schedule':
      return { fired: true, values: {}, summary: `${input.workflow.name}: scheduled run` };
    case 'metric_threshold':
      return metricThreshold(input);
    case 'new_conversion':
      return newConversion(input);
    case 'ad_fatigue':
      return adFatigue(input);
  }
}
