import { z } from 'zod';
import { EXPORT_FORMATS, EXPORT_KINDS } from '../../../analytics/export/formats.ts';
import { adScope, pixelScope } from '../../../analytics/query-scope.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const exportTools = [
  readTool(
    'exports.get-link',
    'Download links',
    '15-minute links to all rows of a kind, or the MMM CSV.',
    'No data itself: the links download the bulk exports of traffic, conversions and ad rows, or the marketing-mix-model file (docs/exports.md).',
    z.object({ kind: z.enum(EXPORT_KINDS).describe('What'), ...rangeArgs }).strict(),
    z.strictObject({ link: out.fields({ kind: out.str, ...out.range, expires_at: out.str, urls: z.record(out.str, out.str) }) }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      // A key that may not read this kind is refused now rather than when a link is opened.
      if (input.kind === 'ads') adScope(ctx, range);
      else pixelScope(ctx, range);
      const days = rangeOut(range);
      const query = { start_date: days.date_from, end_date: days.date_to, timezone: days.timezone };
      // One link per file type: the MMM file is CSV; rows come as NDJSON, CSV or Parquet.
      const formats = input.kind === 'mmm' ? [null] : EXPORT_FORMATS;
      const links = formats.map((format) => [format ?? 'csv', ctx.signDownload(input.kind, format ? { ...query, format } : query)] as const);
      return {
        link: {
          kind: input.kind,
          ...days,
          expires_at: new Date(links[0]![1].expiresAt).toISOString(),
          urls: Object.fromEntries(links.map(([format, link]) => [format, link.url])),
        },
      };
    },
  ),
];
