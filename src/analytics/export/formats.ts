/**
 * The file formats of a bulk export (docs/exports.md). Rows keep their wire types in every format
 * (integers as strings of digits); the engine writes each format itself.
 */
export const EXPORT_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface FormatSpec {
  /** The engine's output format. */
  engine: string;
  /** That format's engine settings. */
  settings: Record<string, string | number>;
  contentType: string;
  extension: string;
}

export const FORMATS: Record<ExportFormat, FormatSpec> = {
  ndjson: { engine: 'JSONEachRow', settings: {}, contentType: 'application/x-ndjson', extension: 'ndjson' },
  // RFC 4180: CRLF after each record, every text field quoted, quotes doubled.
  csv: {
    engine: 'CSVWithNames',
    settings: { output_format_csv_crlf_end_of_line: 1 },
    contentType: 'text/csv; charset=utf-8; header=present',
    extension: 'csv',
  },
  // Row groups of 64 Ki rows keep the engine's buffer small; strings stay UTF-8 strings, arrays lists.
  parquet: {
    engine: 'Parquet',
    settings: { output_format_parquet_row_group_size: 65_536, output_format_parquet_string_as_string: 1, output_format_parquet_compression_method: 'zstd' },
    contentType: 'application/vnd.apache.parquet',
    extension: 'parquet',
  },
};

/** Everything that can be exported: the four row kinds (their row endpoints' rows) and the marketing-mix-model file. */
export const EXPORT_KINDS = ['events', 'sessions', 'conversions', 'ads', 'mmm'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const isExportKind = (value: string): value is ExportKind => (EXPORT_KINDS as readonly string[]).includes(value);

export const isExportFormat = (value: string): value is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(value);
