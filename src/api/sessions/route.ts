import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { rangePage } from '../../kit/paging.ts';
import { listSessions } from '../../analytics/queries/sessions/list-sessions.ts';
import { pageOf } from '../params.ts';
import { parseSessionsQuery } from './schema.ts';
import { sessionsRead } from './read.ts';

export const sessionsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/sessions', async (request) => {
    const query = parseSessionsQuery(request.query);
    const { scope, filters } = sessionsRead(request.auth!, query);
    const page = pageOf(query);
    const rows = await listSessions(app.stores.ch, scope, { ...filters, page });
    return rangePage(rows, page, scope.range);
  });
};
