import type { Clickhouse } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import { getSettings } from '../../store/app/workspaces.ts';
import { DAY_MS, formatDay } from '../../kit/calendar/days.ts';
import type { Range, Undated } from '../../kit/calendar/range.ts';
import { runReportIn, type ReportAuth, type ReportRequest, type ReportRow } from '../report/run.ts';

export const MMM_GRANULARITIES = ['day', 'week'] as const;
export type MmmGranularity = (typeof MMM_GRANULARITIES)[number];
export const MMM_GEOS = ['city'] as const;
export type MmmGeo = (typeof MMM_GEOS)[number];

/** What the table is asked for beside its range. */
export interface MmmRequest {
  granularity: MmmGranularity;
  /** One row per date and geo instead of one per date. */
  geo: MmmGeo | null;
}

/** The marketing-mix-model input: a header and one record per date (and geo), every date of the range. */
export interface MmmTable {
  columns: string[];
  records: (string | number)[][];
}

const PAGE = 500;

/** Every row of a report over the range, page after page. */
async function reportRows(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  range: Range,
  request: Undated<ReportRequest>,
  now: number,
): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await runReportIn(stores, auth, range, { ...request, limit: PAGE, offset }, now);
    rows.push(...page.rows);
    if (!page.pagination.has_more) return rows;
  }
}

/** Each bucket of the range as the report names it: days, or the Mondays of its weeks. */
function buckets(range: Range, granularity: MmmGranularity): string[] {
  const first = Date.parse(formatDay(range.startMs, range.timeZone));
  const last = Date.parse(formatDay(range.endMs, range.timeZone));
  const monday = (day: number) => day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  const [from, step] = granularity === 'week' ? [monday(first), 7 * DAY_MS] : [first, DAY_MS];
  const out: string[] = [];
  for (let day = from; day <= last; day += step) out.push(formatDay(day));
  return out;
}

const num = (value: string | number | null | undefined) => Number(value ?? 0);
const money = (value: number) => value.toFixed(2);
const count = (value: number) => (Number.isInteger(value) ? value : Number(value.toFixed(2)));

interface Media {
  spend: number;
  impressions: number;
  clicks: number;
}

/**
 * The MMM table (docs/exports.md, "Marketing-mix-model input"), built from the report core with
 * the workspace settings, so each figure is the report's: revenue, conversions and sessions per
 * date are the report's `interval` rows, and spend, impressions and clicks per reporting source
 * its `breakdown=source` rows. Every date of the range gets a record (zeros where nothing
 * happened), and only sources with spend in the range get columns. Under any_click, whose rows
 * give each platform a whole sale, revenue and conversions come from last_click, which counts each
 * sale once, as the report's totals do.
 * With `geo`, the records are a panel: one per date and city (the report's `city` breakdown: the
 * city of the sale). Ad platforms report no place, so a city's spend, impressions and clicks are
 * the date's figures times the city's share of the range's conversions, a share that does not
 * change from day to day (the stand-in for population that geo models ask for).
 */
export async function mmmTable(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  range: Range,
  request: MmmRequest,
  now = Date.now(),
): Promise<MmmTable> {
  const settings = await getSettings(stores.db, auth.workspaceId);
  const dates = buckets(range, request.granularity);
  const base: Undated<ReportRequest> = { interval: request.granularity };
  const kpi: Undated<ReportRequest> = {
    ...base,
    metrics: ['revenue', 'conversions', 'sessions'],
    ...(settings.attribution_model === 'any_click' ? { attribution_model: 'last_click' } : {}),
  };

  const mediaRows = await reportRows(stores, auth, range, { ...base, breakdown: 'source', metrics: ['spend', 'impressions', 'clicks'] }, now);
  const media = new Map<string, Media>();
  const spentBy = new Map<string, number>();
  for (const row of mediaRows) {
    const source = String(row.source);
    media.set(`${row.date}|${source}`, { spend: num(row.spend), impressions: num(row.impressions), clicks: num(row.clicks) });
    spentBy.set(source, (spentBy.get(source) ?? 0) + num(row.spend));
  }
  const sources = [...spentBy].filter(([, spend]) => spend > 0).map(([source]) => source).sort();
  const mediaColumns = sources.flatMap((s) => [`${s}_spend`, `${s}_impressions`, `${s}_clicks`]);
  const mediaCells = (date: string, share: number) =>
    sources.flatMap((source) => {
      const m = media.get(`${date}|${source}`) ?? { spend: 0, impressions: 0, clicks: 0 };
      return [money(m.spend * share), count(m.impressions * share), count(m.clicks * share)];
    });

  if (!request.geo) {
    const kpis = new Map((await reportRows(stores, auth, range, kpi, now)).map((row) => [String(row.date), row]));
    return {
      columns: ['date', 'revenue', 'conversions', 'sessions', ...mediaColumns],
      records: dates.map((date) => {
        const row = kpis.get(date);
        return [date, money(num(row?.revenue)), count(num(row?.conversions)), count(num(row?.sessions)), ...mediaCells(date, 1)];
      }),
    };
  }

  const geoRows = await reportRows(stores, auth, range, { ...kpi, breakdown: request.geo }, now);
  const byDateGeo = new Map(geoRows.map((row) => [`${row.date}|${row[request.geo!]}`, row]));
  const conversionsBy = new Map<string, number>();
  for (const row of geoRows) conversionsBy.set(String(row[request.geo]), (conversionsBy.get(String(row[request.geo])) ?? 0) + num(row.conversions));
  const geos = [...conversionsBy.keys()].sort();
  const allConversions = [...conversionsBy.values()].reduce((a, b) => a + b, 0);
  return {
    columns: ['date', 'geo', 'revenue', 'conversions', 'sessions', ...mediaColumns],
    records: dates.flatMap((date) =>
      geos.map((geo) => {
        const row = byDateGeo.get(`${date}|${geo}`);
        const share = allConversions > 0 ? conversionsBy.get(geo)! / allConversions : 0;
        return [date, geo, money(num(row?.revenue)), count(num(row?.conversions)), count(num(row?.sessions)), ...mediaCells(date, share)];
      }),
    ),
  };
}
