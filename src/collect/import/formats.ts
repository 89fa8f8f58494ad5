/**
 * Which reader an import uses: `--format` when given, else the file name (`.csv` or NDJSON); an
 * ads CSV whose header is not our own (no `ad_id` column) is read as a platform export, the
 * platform guessed from its header row (docs/integrations.md, "Ad platforms").
 */
import { AD_EXPORT_FORMATS, type AdExportFormatName } from '../ads/export-formats.ts';
import type { ImportKind } from './kinds.ts';
import { ImportRefused } from './records.ts';
import { detectAdExport } from '../ads/export-reader.ts';
import { firstLine, formatOf, openInput, type FileFormat, type ImportInput } from './sources.ts';

/** Every `--format`; `shopify` (orders) is read by src/collect/shop/shopify-csv.ts, not here. */
export const FORMAT_NAMES = ['ndjson', 'csv', ...AD_EXPORT_FORMATS, 'shopify'] as const;

const isAdExport = (name: string): name is AdExportFormatName => (AD_EXPORT_FORMATS as readonly string[]).includes(name);
const OWN_ADS_HEADER = /(^|,)\s*"?ad_id"?\s*(,|$)/;

export async function resolveFormat(kind: ImportKind, input: ImportInput, requested: string | undefined, currency: string): Promise<FileFormat> {
  if (requested !== undefined) {
    if (requested === 'ndjson' || requested === 'csv') return { format: requested };
    if (!isAdExport(requested)) throw new ImportRefused(`Unknown format: ${requested}. Formats: ${FORMAT_NAMES.join(', ')}`);
    if (kind.kind !== 'ads') throw new ImportRefused(`--format ${requested} is an ads report: use it with --kind ads`);
    return { format: 'ad-export', platform: requested, currency };
  }
  const byName = formatOf(input);
  if (kind.kind !== 'ads' || byName.format !== 'csv' || OWN_ADS_HEADER.test(await firstLine(input))) return byName;
  return { format: 'ad-export', platform: await detectAdExport(openInput(input)), currency };
}
