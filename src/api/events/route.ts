import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { rangePage } from '../../kit/paging.ts';
import { listEvents } from '../../analytics/queries/events/list-events.ts';
import { pageOf } from '../params.ts';
import { parseEventsQuery } from './schema.ts';
import { eventsRead } from './read.ts';

export const eventsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/events', async (request) => {
    const query = parseEventsQuery(request.query);
    const { scope, filters } = eventsRead(request.auth!, query);
    const page = pageOf(query);
    const rows = await listEvents(app.stores.ch, scope, { ...filters, page });
    return rangePage(rows, page, scope.range);
  });
};
