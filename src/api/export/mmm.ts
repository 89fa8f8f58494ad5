import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { dataRoute } from '../../http/data-route.ts';
import { csvText } from '../../kit/csv.ts';
import { MMM_GEOS, MMM_GRANULARITIES, mmmTable } from '../../analytics/mmm/table.ts';
import { DATE_ALIASES, choice, parseWith, zonedDateShape, type QuerySpec } from '../params.ts';
import { downloadName } from './send.ts';

export const mmmQuerySchema = z.object({
  ...zonedDateShape,
  granularity: choice('granularity', MMM_GRANULARITIES).transform((v) => v ?? 'day'),
  geo: choice('geo', MMM_GEOS).transform((v) => v ?? null),
});

export const mmmQuery: QuerySpec<typeof mmmQuerySchema> = { schema: mmmQuerySchema, aliases: { ...DATE_ALIASES } };

export const parseMmmQuery = (raw: unknown) => parseWith(mmmQuery, raw);

/** `GET /v3/export/mmm`: the marketing-mix-model input as CSV (docs/exports.md). */
export const mmmRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/export/mmm', async (request, reply) => {
    const table = await mmmTable(app.stores, request.auth!, parseMmmQuery(request.query));
    reply
      .header('content-type', 'text/csv; charset=utf-8; header=present')
      .header('content-disposition', `attachment; filename="${downloadName('mmm', table.range, 'csv')}"`)
      .header('cache-control', 'no-store');
    return csvText([table.columns, ...table.records]);
  });
};
