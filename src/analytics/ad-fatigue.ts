/**
 * Creative fatigue, read from daily ad delivery: the scores behind `ad-fatigue.get-scores` and
 * the workflows' ad_fatigue trigger.
 */
import { money, ratio } from '../kit/numbers.ts';
import type { AdDayRow } from './queries/ad-fatigue/daily-ad-delivery.ts';
import { relativeChange } from './report/compare.ts';

/**
 * Fatigue of one ad: the delivery days are split into an early and a late half; CTR falling and
 * frequency (impressions per person reached) rising from one half to the other are the signs.
 * Score 0 to 100: 60 points for the CTR decline (full at -50 %), 40 for the frequency rise
 * (full at +100 %).
 */
export function fatigueOf(days: AdDayRow[]) {
  const half = Math.floor(days.length / 2);
  const sum = (rows: AdDayRow[], key: 'impressions' | 'clicks' | 'reach') => rows.reduce((a, r) => a + Number(r[key]), 0);
  const early = days.slice(0, half);
  const late = days.slice(days.length - half);
  const ctrEarly = ratio(sum(early, 'clicks'), sum(early, 'impressions'), 6);
  const ctrLate = ratio(sum(late, 'clicks'), sum(late, 'impressions'), 6);
  const freqEarly = ratio(sum(early, 'impressions'), sum(early, 'reach'), 4);
  const freqLate = ratio(sum(late, 'impressions'), sum(late, 'reach'), 4);
  const ctrChange = relativeChange(ctrLate, ctrEarly);
  const freqChange = relativeChange(freqLate, freqEarly);
  const ctrPoints = ctrChange === null ? 0 : Math.min(1, Math.max(0, -ctrChange / 0.5)) * 60;
  const freqPoints = freqChange === null ? 0 : Math.min(1, Math.max(0, freqChange / 1)) * 40;
  const score = half === 0 ? null : Math.round(ctrPoints + freqPoints);
  return { ctr_early: ctrEarly, ctr_late: ctrLate, ctr_change: ctrChange, frequency_early: freqEarly, frequency_late: freqLate, frequency_change: freqChange, score };
}

/** Every ad delivered on at least `minDays` of the rows' days, scored; highest score first, then most spend. */
export function scoreAds(rows: AdDayRow[], minDays: number) {
  const byAd = new Map<string, AdDayRow[]>();
  for (const row of rows) {
    const key = `${row.source}\u0000${row.ad_id}`;
    byAd.set(key, [...(byAd.get(key) ?? []), row]);
  }
  return [...byAd.values()]
    .filter((days) => days.length >= minDays)
    .map((days) => {
      const last = days[days.length - 1]!;
      return {
        source: last.source,
        ad_id: last.ad_id,
        ad_name: last.ad_name,
        campaign_name: last.campaign_name,
        days: days.length,
        spend: money(days.reduce((a, d) => a + Number(d.spend_cents), 0)),
        ...fatigueOf(days),
      };
    })
    .sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || b.spend - a.spend || a.ad_id.localeCompare(b.ad_id));
}
