import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Clickhouse } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import { AccessDenied } from '../../kit/errors.ts';
import { csvText } from '../../kit/csv.ts';
import { resolveRange, type Range, type RangeText } from '../../kit/calendar/range.ts';
import { pixelRefusal } from '../../analytics/permissions.ts';
import type { Reader } from '../../analytics/query-scope.ts';
import { MMM_GEOS, MMM_GRANULARITIES, mmmTable, type MmmRequest } from '../../analytics/mmm/table.ts';
import { DATE_ALIASES, choice, parseWith, zonedDateShape, type QuerySpec } from '../params.ts';
import { downloadName } from './send.ts';

export const mmmQuerySchema = z.object({
  ...zonedDateShape,
  granularity: choice('granularity', MMM_GRANULARITIES).transform((v) => v ?? 'day'),
  geo: choice('geo', MMM_GEOS).transform((v) => v ?? null),
});

export const mmmQuery: QuerySpec<typeof mmmQuerySchema> = { schema: mmmQuerySchema, aliases: { ...DATE_ALIASES } };

export const parseMmmQuery = (raw: unknown, alsoKnown: readonly string[] = []): MmmRequest & RangeText => parseWith(mmmQuery, raw, alsoKnown);

/** A checked MMM request: its parameters and range (400s) and the reader's access to pixel data (403), before any query. */
export interface MmmPlan {
  kind: 'mmm';
  reader: Reader;
  request: MmmRequest;
  range: Range;
}

export function planMmm(reader: Reader, raw: unknown, alsoKnown: readonly string[] = []): MmmPlan {
  const request = parseMmmQuery(raw, alsoKnown);
  const range = resolveRange(request);
  const refusal = pixelRefusal(reader.visibility, undefined);
  if (refusal) throw new AccessDenied(refusal);
  return { kind: 'mmm', reader, request, range };
}

/** The MMM file as a CSV answer (small: one record per date, made whole before it is sent). */
export async function sendMmm(stores: { ch: Clickhouse; db: AppDatabase }, plan: MmmPlan, reply: FastifyReply): Promise<string> {
  const table = await mmmTable(stores, plan.reader, plan.range, plan.request);
  reply
    .header('content-type', 'text/csv; charset=utf-8; header=present')
    .header('content-disposition', `attachment; filename="${downloadName('mmm', plan.range, 'csv')}"`)
    .header('cache-control', 'no-store');
  return csvText([table.columns, ...table.records]);
}
