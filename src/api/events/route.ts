import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { resolveRange } from '../../kit/range.ts';
import { rangePage } from '../../kit/paging.ts';
import { listEvents } from '../../analytics/queries/events/list-events.ts';
import { pixelScope } from '../../analytics/query-scope.ts';
import { parseEventsQuery } from './schema.ts';

export const eventsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/events', async (request) => {
    const query = parseEventsQuery(request.query);
    const scope = pixelScope(request.auth!, resolveRange(query), query.source);
    const page = { limit: query.limit, offset: query.offset };
    const rows = await listEvents(app.stores.ch, scope, { page, name: query.name, sessionId: query.session_id, visitorId: query.visitor_id });
    return rangePage(rows, page, scope.range);
  });
};
