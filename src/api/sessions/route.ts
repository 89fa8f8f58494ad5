import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { resolveRange } from '../../kit/range.ts';
import { rangePage } from '../../kit/paging.ts';
import { listSessions } from '../../analytics/queries/sessions/list-sessions.ts';
import { pageOf } from '../params.ts';
import { pixelScope } from '../../analytics/query-scope.ts';
import { parseSessionsQuery } from './schema.ts';

export const sessionsRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/sessions', async (request) => {
    const query = parseSessionsQuery(request.query);
    const scope = pixelScope(request.auth!, resolveRange(query), query.source);
    const page = pageOf(query);
    const rows = await listSessions(app.stores.ch, scope, { page, sessionId: query.session_id, visitorId: query.visitor_id });
    return rangePage(rows, page, scope.range);
  });
};
