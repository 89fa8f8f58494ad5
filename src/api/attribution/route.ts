import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { explainConversion, explainRange } from '../../analytics/explain/explain-conversion.ts';
import { parseAttributionQuery } from './schema.ts';

/** GET /v3/attribution: why one conversion was credited where it was, under every model. */
export const attributionRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/attribution', async (request) => {
    const { start_date, end_date, timezone, ...asked } = parseAttributionQuery(request.query);
    return { data: await explainConversion(app.stores, request.auth!, explainRange({ start_date, end_date, timezone }), asked) };
  });
};
