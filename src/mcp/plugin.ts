import type { FastifyInstance } from 'fastify';
import { HttpError, sendError } from '../http/errors.ts';
import { preflightRoute } from '../http/cors.ts';
import { OAUTH_PATH, openConnection } from './connection.ts';
import { MCP_BODY_LIMIT, endpointErrorHandler } from './errors.ts';
import { rpcHandler } from './handler.ts';
import { originHook, toolEndpointCors } from './origin.ts';

/**
 * `POST /mcp` and `POST /mcp/oauth`: JSON responses only, no sessions, no event stream
 * (docs/mcp.md). Both refuse a foreign Origin with 403 first (`origin.ts`). `/mcp` resolves
 * credentials only for the methods that need them; `/mcp/oauth` wants an OAuth access token on
 * every request (`connection.ts`). `errors.ts` maps every failure; `handler.ts` answers JSON-RPC.
 */
export async function mcpPlugin(app: FastifyInstance): Promise<void> {
  // The body is read as text so that broken JSON becomes -32700 instead of Fastify's 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MCP_BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.addHook('onRequest', originHook(app.config));
  app.setErrorHandler(endpointErrorHandler);

  const cors = toolEndpointCors(app.config);
  for (const path of ['/mcp', OAUTH_PATH]) {
    app.post(path, { onRequest: openConnection(app, path), config: { cors } }, rpcHandler(app, path));
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: path,
      config: { cors },
      handler: async (_request, reply) => sendError(reply.header('allow', 'POST'), new HttpError(405, 'Method not allowed')),
    });
    preflightRoute(app, path, cors);
  }
}
