/**
 * The demo's ad spend as the platforms export it: the generator's ads rows written as a Meta Ads
 * Manager, Google Ads, TikTok Ads Manager and Microsoft Advertising report (title lines, total
 * rows, thousands separators, money in main units), which the demo then imports through the same
 * reader as `import --kind ads`. Column names come from the reader's format table.
 */
import { adExportFormats, type AdExportFormatName, type ExportField } from '../../collect/ads/export-formats.ts';
import { minorDigits } from '../../collect/ads/values.ts';

type Row = Record<string, unknown>;

export interface AdExport {
  format: AdExportFormatName;
  name: string;
  text: string;
}

/** Which export carries a demo ads row: the legacy `bing` account reports through Microsoft Advertising. */
const PLATFORM_OF: Record<string, AdExportFormatName> = { meta: 'meta', google: 'google', tiktok: 'tiktok', microsoft: 'microsoft', bing: 'microsoft' };

const FIELD_OF_ROW: Partial<Record<ExportField, string>> = {
  day: 'dt',
  day_start: 'dt',
  day_end: 'dt',
  account_id: 'adaccount_id',
  campaign_id: 'campaign_id',
  campaign_name: 'campaign_name',
  adgroup_id: 'adgroup_id',
  adgroup_name: 'adgroup_name',
  ad_id: 'ad_id',
  ad_name: 'ad_name',
  spend: 'spend',
  impressions: 'impressions',
  clicks: 'clicks',
  reach: 'reach',
};

interface Layout {
  fields: ExportField[];
  /** Money and counts with thousands separators. */
  grouped: boolean;
  preamble(first: string, last: string, rows: number): string[];
  totals?(cells: (field: ExportField) => string, rows: number): string[];
  footer: string[];
}

const LAYOUTS: Record<AdExportFormatName, Layout> = {
  meta: {
    fields: ['day_start', 'day_end', 'account_id', 'campaign_name', 'campaign_id', 'adgroup_name', 'adgroup_id', 'ad_name', 'ad_id', 'spend', 'impressions', 'reach', 'clicks'],
    grouped: false,
    preamble: () => [],
    // Meta's optional summary row: the range and the sums, no names or ids.
    totals: (cells) => [cells('day_start'), cells('day_end'), '', '', '', '', '', '', '', cells('spend'), cells('impressions'), cells('reach'), cells('clicks')],
    footer: [],
  },
  google: {
    fields: ['day', 'account_id', 'campaign_name', 'campaign_id', 'adgroup_name', 'adgroup_id', 'ad_name', 'ad_id', 'currency', 'spend', 'impressions', 'clicks'],
    grouped: true,
    preamble: (first, last) => ['Ad report', csvCell(`${longDay(first)} - ${longDay(last)}`)],
    totals: (cells) => ['Total: Account', '--', '--', '--', '--', '--', '--', '--', cells('currency'), cells('spend'), cells('impressions'), cells('clicks')],
    footer: [],
  },
  tiktok: {
    fields: ['day', 'account_id', 'campaign_name', 'campaign_id', 'adgroup_name', 'adgroup_id', 'ad_name', 'ad_id', 'currency', 'spend', 'impressions', 'clicks', 'reach'],
    grouped: false,
    preamble: () => [],
    totals: (cells, rows) => [`Total of ${rows} results`, '', '', '', '', '', '', '', cells('currency'), cells('spend'), cells('impressions'), cells('clicks'), cells('reach')],
    footer: [],
  },
  microsoft: {
    fields: ['day', 'account_id', 'campaign_name', 'campaign_id', 'adgroup_name', 'adgroup_id', 'ad_name', 'ad_id', 'currency', 'spend', 'impressions', 'clicks'],
    grouped: false,
    preamble: (first, last, rows) => [
      '"Report Name: Ad performance"',
      `"Report Time: ${usDay(first)},${usDay(last)}"`,
      '"Time Zone: (GMT) Coordinated Universal Time"',
      `"Last Completed Available Day: ${usDay(last)} 11:59:00 PM (GMT)"`,
      `"Last Completed Available Hour: ${usDay(last)} 11:59:00 PM (GMT)"`,
      '"Report Aggregation: Daily"',
      '"Report Filter: "',
      '"Potential Incomplete Data: false"',
      `"Rows: ${rows}"`,
      '',
    ],
    footer: ['', `"©${new Date().getUTCFullYear()} Microsoft Corporation. All rights reserved. "`],
  },
};

function csvCell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const longDay = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const usDay = (iso: string) => `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/${iso.slice(0, 4)}`;

function formatter(grouped: boolean, digits: number) {
  const money = new Intl.NumberFormat('en-US', { useGrouping: grouped, minimumFractionDigits: digits, maximumFractionDigits: digits });
  const count = new Intl.NumberFormat('en-US', { useGrouping: grouped, maximumFractionDigits: 0 });
  return { money: (minor: number) => money.format(minor / 10 ** digits), count: (n: number) => count.format(n) };
}

function header(format: AdExportFormatName, currency: string): string[] {
  return LAYOUTS[format].fields.map((field) => {
    const name = adExportFormats[format].columns[field]![0]!;
    // Meta names the currency in the money header and has no currency column.
    return format === 'meta' && field === 'spend' ? `${name} (${currency})` : name;
  });
}

function render(format: AdExportFormatName, rows: Row[], currency: string): string {
  const layout = LAYOUTS[format];
  const fmt = formatter(layout.grouped, minorDigits(currency));
  const value = (row: Row, field: ExportField): string => {
    if (field === 'currency') return currency;
    const raw = row[FIELD_OF_ROW[field]!];
    if (field === 'spend') return fmt.money(raw as number);
    if (field === 'impressions' || field === 'clicks' || field === 'reach') return fmt.count(raw as number);
    return String(raw ?? '');
  };
  const days = rows.map((r) => r.dt as string).sort();
  const sum = (key: string) => rows.reduce((total, r) => total + (r[key] as number), 0);
  const totals = (field: ExportField): string => {
    if (field === 'day_start') return days[0]!;
    if (field === 'day_end') return days.at(-1)!;
    if (field === 'currency') return currency;
    return field === 'spend' ? fmt.money(sum('spend')) : fmt.count(sum(FIELD_OF_ROW[field]!));
  };
  const lines = [
    ...layout.preamble(days[0]!, days.at(-1)!, rows.length),
    header(format, currency).map(csvCell).join(','),
    ...rows.map((row) => layout.fields.map((field) => csvCell(value(row, field))).join(',')),
  ];
  if (layout.totals) lines.push(layout.totals(totals, rows.length).map(csvCell).join(','));
  return [...lines, ...layout.footer].join('\r\n');
}

/** One export per platform that has rows, in a fixed order. */
export function adExports(rows: Row[], currency: string, label: string): AdExport[] {
  const byPlatform = new Map<AdExportFormatName, Row[]>();
  for (const row of rows) {
    const platform = PLATFORM_OF[row.source as string]!;
    if (!byPlatform.has(platform)) byPlatform.set(platform, []);
    byPlatform.get(platform)!.push(row);
  }
  return (['meta', 'google', 'tiktok', 'microsoft'] as const)
    .filter((format) => byPlatform.has(format))
    .map((format) => ({ format, name: `${format}-${label}.csv`, text: render(format, byPlatform.get(format)!, currency) }));
}
