import { z } from 'zod';
import { EXPORT_FORMATS, isExportFormat, type ExportFormat } from '../../analytics/export/formats.ts';
import { parseWith, type QuerySpec } from '../params.ts';

const FORMAT_MESSAGE = `Invalid format parameter. Accepted values: ${EXPORT_FORMATS.join(', ')}`;

export const formatParam = z
  .string({ error: FORMAT_MESSAGE })
  .max(40, { error: FORMAT_MESSAGE })
  .transform((value, ctx) => {
    if (isExportFormat(value)) return value;
    ctx.addIssue({ code: 'custom', message: `Invalid format: ${value}. Accepted values: ${EXPORT_FORMATS.join(', ')}` });
    return z.NEVER;
  })
  .optional()
  .transform((value): ExportFormat => value ?? 'ndjson');

/** Parameters a row endpoint reads that an export does not: the page (and its aliases), grouping. */
const NOT_EXPORTED = new Set(['limit', 'offset', 'group_by']);

/**
 * An export's parameters: its row endpoint's own (filters, dates, sources, aliases) without the
 * page or the grouping, plus `format`. `parse` answers the row endpoint's filter query and the format.
 */
export function exportQueryOf<Q>(rows: QuerySpec): QuerySpec & { parse(raw: unknown, alsoKnown?: readonly string[]): Q & { format: ExportFormat } } {
  const kept = Object.fromEntries(Object.entries(rows.schema.shape).filter(([name]) => !NOT_EXPORTED.has(name)));
  const spec: QuerySpec = {
    schema: z.object({ ...kept, format: formatParam }),
    aliases: Object.fromEntries(Object.entries(rows.aliases ?? {}).filter(([, canonical]) => !NOT_EXPORTED.has(canonical))),
    lists: (rows.lists ?? []).filter((name) => !NOT_EXPORTED.has(name)),
  };
  return { ...spec, parse: (raw, alsoKnown) => parseWith(spec, raw, alsoKnown) as Q & { format: ExportFormat } };
}
