/**
 * Reads an ad platform's report export (CSV) into ads rows in the import row format: finds the
 * header row below the report's title lines, works out the platform from it (or takes the one
 * named), maps its columns, skips total and footer rows, and turns main-unit money into minor
 * units. Whole-file problems (unknown layout, missing columns, another currency) throw
 * ImportRefused before or while rows are read; the caller reads the file once through before
 * writing, so a refused file writes nothing. Rules: docs/integrations.md, "Ad platforms".
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { Invalid } from '../fields.ts';
import { ImportRefused, type SourceRecord } from '../import/records.ts';
import {
  AD_EXPORT_FORMATS,
  adExportFormats,
  NEEDED_FIELDS,
  type AdExportFormat,
  type AdExportFormatName,
  type ExportField,
} from './export-formats.ts';
import { amountToMinor, minorDigits, parseAdDay, parseCount } from './values.ts';

/** The header must come within this many lines (Microsoft's report preamble takes about ten). */
const HEADER_SEARCH_LINES = 30;

export interface AdExportOptions {
  /** Named with `--format`, or found by detectAdExport. */
  format: AdExportFormatName;
  /** The workspace currency: a file in another one is refused. */
  currency: string;
  now?: number;
}

const normalise = (header: string) => header.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/\s+/g, ' ');
const CURRENCY_SUFFIX = /^(.*\S)\s*\(([a-z]{3})\)$/;
/** What Google writes in a cell without a value. */
const NO_VALUE = new Set(['', '--', ' --']);
/** First cells of total rows (Google "Total: Account", TikTok "Total of 12 results") and Microsoft's footer. */
const SUMMARY_CELL = /^(total\b|totals\b|grand total|©|\(c\)|@\d{4} microsoft)/i;

interface Header {
  format: AdExportFormat;
  index: Partial<Record<ExportField, number>>;
  /** Currency named in the money header ("Amount spent (USD)"), upper case. */
  headerCurrency: string | null;
}

function readHeader(format: AdExportFormat, cells: string[]): Header {
  const index: Header['index'] = {};
  let headerCurrency: string | null = null;
  const names = cells.map((cell) => {
    const name = normalise(cell);
    const suffixed = CURRENCY_SUFFIX.exec(name);
    if (suffixed && format.columns.spend?.some((alias) => normalise(alias) === suffixed[1])) {
      headerCurrency = suffixed[2]!.toUpperCase();
      return suffixed[1]!;
    }
    return name;
  });
  for (const [field, aliases] of Object.entries(format.columns) as [ExportField, string[]][]) {
    for (const alias of aliases) {
      const at = names.indexOf(normalise(alias));
      if (at !== -1) {
        index[field] = at;
        break;
      }
    }
  }
  return { format, index, headerCurrency };
}

/** How well a row of cells fits a format's header: known columns count 1, the format's own markers 2 more. */
function score(format: AdExportFormat, cells: string[]): number {
  const header = readHeader(format, cells);
  const known = Object.keys(header.index).length;
  const names = new Set(cells.map((c) => normalise(c).replace(CURRENCY_SUFFIX, '$1')));
  return known + 2 * format.markers.filter((m) => names.has(normalise(m))).length;
}

const MIN_HEADER_SCORE = 3;

/** The platform whose header this row is, null when none fits, or a refusal when two fit equally. */
function detect(cells: string[], named?: AdExportFormatName): AdExportFormat | null {
  if (named) return score(adExportFormats[named], cells) >= MIN_HEADER_SCORE ? adExportFormats[named] : null;
  const ranked = AD_EXPORT_FORMATS.map((name) => ({ format: adExportFormats[name], score: score(adExportFormats[name], cells) }))
    .filter((r) => r.score >= MIN_HEADER_SCORE)
    .sort((a, b) => b.score - a.score);
  if (ranked.length > 1 && ranked[0]!.score === ranked[1]!.score) {
    throw new ImportRefused(
      `The header row fits both ${ranked[0]!.format.label} and ${ranked[1]!.format.label} exports; name the platform with --format ${ranked[0]!.format.name}|${ranked[1]!.format.name}`,
    );
  }
  return ranked[0]?.format ?? null;
}

function missingColumns(header: Header): string[] {
  const { columns } = header.format;
  const missing = NEEDED_FIELDS.filter((f) => header.index[f] === undefined).map((f) => columns[f]![0]!);
  const hasDay = header.index.day !== undefined || (header.index.day_start !== undefined && header.index.day_end !== undefined);
  if (!hasDay) {
    const range = columns.day_start ? ` (or ${columns.day_start[0]} and ${columns.day_end![0]})` : '';
    missing.unshift(`${columns.day![0]}${range}`);
  }
  return missing;
}

function cellOf(cells: string[], header: Header, field: ExportField): string {
  const at = header.index[field];
  const value = at === undefined ? '' : (cells[at] ?? '').trim();
  return NO_VALUE.has(value) ? '' : value;
}

const IDENTITY: ExportField[] = ['campaign_id', 'campaign_name', 'adgroup_id', 'adgroup_name', 'ad_id', 'ad_name'];

function isSummaryRow(cells: string[], header: Header): boolean {
  if (cellOf(cells, header, 'ad_id') !== '') return false;
  return cells.some((c) => SUMMARY_CELL.test(c.trim())) || IDENTITY.every((f) => cellOf(cells, header, f) === '');
}

/** One data row as an ads import row, or the problems of its cells. */
function toAdRow(cells: string[], header: Header, digits: number, now: number): Record<string, unknown> | string {
  const { columns } = header.format;
  const problems: string[] = [];
  const column = (field: ExportField) => columns[field]![0]!;
  const convert = <T>(field: ExportField, parse: (text: string) => T | Invalid, fallback: T): T => {
    const text = cellOf(cells, header, field);
    if (text === '') return fallback;
    const value = parse(text);
    if (value instanceof Invalid) {
      problems.push(`${column(field)}: ${value.message}`);
      return fallback;
    }
    return value;
  };
  let dt: string | undefined;
  if (cellOf(cells, header, 'day') !== '') dt = convert('day', (t) => parseAdDay(t, now), undefined);
  else if (header.index.day_start !== undefined) {
    const start = convert('day_start', (t) => parseAdDay(t, now), undefined);
    const end = convert('day_end', (t) => parseAdDay(t, now), undefined);
    if (start && end && start !== end) {
      problems.push(`${column('day_start')} ${start} and ${column('day_end')} ${end} span several days: export one row per day`);
    } else dt = start;
  }
  if (dt === undefined && problems.length === 0) problems.push(`${column(header.index.day !== undefined ? 'day' : 'day_start')}: is required`);
  const row: Record<string, unknown> = {
    dt,
    source: header.format.source,
    ad_id: cellOf(cells, header, 'ad_id') || undefined,
    adaccount_id: cellOf(cells, header, 'account_id'),
    campaign_id: cellOf(cells, header, 'campaign_id'),
    campaign_name: cellOf(cells, header, 'campaign_name'),
    adgroup_id: cellOf(cells, header, 'adgroup_id'),
    adgroup_name: cellOf(cells, header, 'adgroup_name'),
    ad_name: cellOf(cells, header, 'ad_name'),
    spend: convert('spend', (t) => amountToMinor(t, digits), 0),
    impressions: header.index.impressions === undefined ? 0 : convert('impressions', parseCount, 0),
    clicks: header.index.clicks === undefined ? 0 : convert('clicks', parseCount, 0),
    reach: header.index.reach === undefined ? 0 : convert('reach', parseCount, 0),
  };
  if (row.ad_id === undefined) problems.push(`${column('ad_id')}: is required`);
  return problems.length > 0 ? problems.join('; ') : row;
}

const rowsOf = (input: Readable) =>
  input.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true })) as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>;

/** The platform whose export this is, from the first header row that fits one. */
export async function detectAdExport(input: Readable): Promise<AdExportFormatName> {
  for await (const { record, info } of rowsOf(input)) {
    const format = detect(record);
    if (format) return format.name;
    if (info.lines >= HEADER_SEARCH_LINES) break;
  }
  throw unknownLayout();
}

export async function* adExportRecords(input: Readable, options: AdExportOptions): AsyncGenerator<SourceRecord> {
  const currency = options.currency.toUpperCase();
  const now = options.now ?? Date.now();
  const digits = minorDigits(currency);
  let header: Header | null = null;
  for await (const { record, info } of rowsOf(input)) {
    const line = info.lines;
    if (!header) {
      const format = detect(record, options.format);
      if (!format) {
        if (line < HEADER_SEARCH_LINES) continue;
        break;
      }
      header = readHeader(format, record);
      const missing = missingColumns(header);
      if (missing.length > 0) {
        throw new ImportRefused(`${format.label} export without the columns every row needs: ${missing.join(', ')} (header on line ${line})`);
      }
      if (header.headerCurrency && header.headerCurrency !== currency) throw currencyRefusal(header.headerCurrency, currency, line);
      continue;
    }
    if (record.every((cell) => NO_VALUE.has(cell.trim())) || isSummaryRow(record, header)) continue;
    const rowCurrency = cellOf(record, header, 'currency').toUpperCase();
    if (rowCurrency && rowCurrency !== currency) throw currencyRefusal(rowCurrency, currency, line);
    const row = toAdRow(record, header, digits, now);
    yield typeof row === 'string' ? { line, error: row } : { line, value: row };
  }
  if (!header) throw unknownLayout(options.format);
}

function currencyRefusal(found: string, expected: string, line: number): ImportRefused {
  return new ImportRefused(`The export's amounts are in ${found} (line ${line}) but the workspace keeps ${expected}; nothing was imported`);
}

function unknownLayout(format?: AdExportFormatName): ImportRefused {
  if (format) {
    return new ImportRefused(`No header row of a ${adExportFormats[format].label} export in the first ${HEADER_SEARCH_LINES} lines`);
  }
  const labels = AD_EXPORT_FORMATS.map((f) => adExportFormats[f].label).join(', ');
  return new ImportRefused(
    `Unknown ads file: its first ${HEADER_SEARCH_LINES} lines hold no header of a ${labels} export, nor the columns dt, source, ad_id; ` +
      `name the platform with --format ${AD_EXPORT_FORMATS.join('|')}`,
  );
}
