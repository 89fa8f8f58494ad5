/**
 * The conversion names of a store (`metadata.list_schema`, the dashboard's conversions view):
 * what the pixel recorded in a range, name by name, and which of them the workspace counts.
 */
import type { Clickhouse } from '../store/clickhouse.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { getSettings } from '../store/app/workspaces.ts';
import type { Range } from '../kit/calendar/range.ts';
import { pixelScope, type Reader } from './query-scope.ts';
import { countsName } from './conversion-names.ts';
import { conversionNameCounts } from './queries/conversions/name-counts.ts';

export interface ConversionNameCount {
  name: string;
  conversions: number;
  /** Decimals of the workspace currency. */
  revenue: number;
  /** Whether the workspace's `conversion_names` count it where a request names none. */
  counted: boolean;
}

/**
 * The conversion names of a range on the channels the reader sees, each with its conversions and
 * revenue (cancelled and test orders left out) and whether the workspace counts it, beside the
 * workspace's `conversion_names`.
 */
export async function listConversionNames(
  stores: { ch: Clickhouse; db: AppDatabase },
  reader: Reader,
  range: Range,
): Promise<{ names: ConversionNameCount[]; conversion_names: string[] }> {
  const [settings, rows] = await Promise.all([
    getSettings(stores.db, reader.workspaceId),
    conversionNameCounts(stores.ch, pixelScope(reader, range)),
  ]);
  return {
    names: rows.map((row) => ({
      name: row.name,
      conversions: Number(row.conversions),
      revenue: Number(row.revenue) / 100,
      counted: countsName(settings.conversion_names, row.name),
    })),
    conversion_names: settings.conversion_names,
  };
}
