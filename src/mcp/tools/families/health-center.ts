import { z } from 'zod';
import { DAY_MS, dayOf, formatDay } from '../../../kit/calendar/days.ts';
import { adFreshness } from '../../../analytics/queries/health/ad-freshness.ts';
import { pixelHealth } from '../../../analytics/queries/health/pixel-health.ts';
import { reconcile } from '../../../analytics/reconciliation.ts';
import { rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { requireAllChannels } from '../kit/scope.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

/** Thresholds of the summary's status values. */
const PIXEL_STALE_HOURS = 24;
const MATCH_RATE_WARN = 0.8;
const AD_STALE_DAYS = 2;

type Status = 'ok' | 'warning' | 'error' | 'no_data';

export const healthCenterTools = [
  readTool(
    'health-center.get-summary',
    'Tracking health summary',
    'Tracking health with a status each: pixel freshness, match rate (shop sale orders a pixel purchase names), ' +
      'newest ad day per platform.',
    'The newest events and conversions (traffic), orders against pixel purchases (as reconciliation.get-data) and the newest ad rows.',
    z.object(rangeArgs).strict(),
    z.strictObject({
      health: out.fields({ ...out.range, checked_at: out.str, status: out.str, pixel: out.open, conversion_matching: out.open, ad_data: out.open }),
    }),
    async (ctx, input) => {
      requireAllChannels(ctx, 'the tracking health summary');
      const now = ctx.now();
      const range = toolRange(ctx, input);
      const scope = pixelScope(ctx, range);
      const [pixel, ads, books] = await Promise.all([pixelHealth(ctx.ch, scope, now), adFreshness(ctx.ch, scope), reconcile(ctx, ctx, range, now)]);
      const lastEventMs = pixel.last_event_at ? Date.parse(`${pixel.last_event_at.replace(' ', 'T')}Z`) : null;
      const hoursSince = lastEventMs === null ? null : Math.round(((now - lastEventMs) / 3_600_000) * 10) / 10;
      const pixelStatus: Status = hoursSince === null ? 'no_data' : hoursSince > PIXEL_STALE_HOURS ? 'error' : 'ok';
      // The orders the report counts: sale orders the settings do not exclude.
      const orders = books.totals.matched_orders + books.totals.unmatched_orders;
      const matchRate = ratio(books.totals.matched_orders, orders);
      const matchStatus: Status = matchRate === null ? 'no_data' : matchRate < MATCH_RATE_WARN ? 'warning' : 'ok';
      const today = dayOf(now, range.timeZone);
      const platforms = ads.map((a) => {
        const lagDays = Math.round((today - Date.parse(`${a.last_day}T00:00:00Z`)) / DAY_MS);
        return { source: a.source, last_day: a.last_day, days_behind: lagDays, ads: Number(a.ads), status: (lagDays > AD_STALE_DAYS ? 'warning' : 'ok') as Status };
      });
      const statuses: Status[] = [pixelStatus, matchStatus, ...platforms.map((p) => p.status)];
      const overall: Status = statuses.includes('error') ? 'error' : statuses.includes('warning') ? 'warning' : statuses.every((s) => s === 'no_data') ? 'no_data' : 'ok';
      return {
        health: {
          ...rangeOut(range),
          checked_at: new Date(now).toISOString().slice(0, 19).replace('T', ' '),
          status: overall,
          pixel: { status: pixelStatus, last_event_at: pixel.last_event_at, hours_since_last_event: hoursSince, events_last_24h: Number(pixel.events_last_24h) },
          conversion_matching: {
            status: matchStatus, orders, orders_with_purchase: books.totals.matched_orders, match_rate: matchRate, last_conversion_at: pixel.last_conversion_at,
          },
          ad_data: { today: formatDay(today), platforms },
        },
      };
    },
  ),
];
