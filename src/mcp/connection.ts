import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveCaller, resolveOAuthCaller, type Caller } from './caller.ts';
import { RpcError } from './protocol.ts';
import { publicBase } from './public-base.ts';
import { TOOL_FAMILIES } from './tools/index.ts';
import { parseSelection, type ToolSelection } from './tools/kit/selection.ts';

/** The tool endpoint for OAuth connections; `/mcp` takes API keys (docs/mcp.md). */
export const OAUTH_PATH = '/mcp/oauth';

/** One request's view of the endpoint: who calls (resolved when a method needs it) and which tools it sees. */
export interface Connection {
  caller(): Promise<Caller>;
  selection: ToolSelection;
  /** The service's public origin (`publicBase`), for links the tools hand out. */
  baseUrl: string;
}

const connections = new WeakMap<FastifyRequest, Connection>();

/** The connection `openConnection` set up for this request. */
export const connectionOf = (request: FastifyRequest): Connection => connections.get(request)!;

/** The WWW-Authenticate challenge of an endpoint URL (RFC 6750 section 3, RFC 9728 section 5.1): where to find the authorization server. */
export function bearerChallenge(app: FastifyInstance, request: FastifyRequest, path: string, problem = ''): string {
  return `Bearer resource_metadata="${publicBase(app.config, request)}/.well-known/oauth-protected-resource${path}"${problem}`;
}

/**
 * Before the body is read: the URL's tool selection (InvalidInput, a 400) and, on /mcp/oauth, the
 * access token, answered with 401 and the challenge without one, which is what makes MCP clients
 * start OAuth on their own.
 */
export function openConnection(app: FastifyInstance, path: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const selection = parseSelection(request.query as Record<string, unknown>, TOOL_FAMILIES);
    const baseUrl = publicBase(app.config, request);
    const resource = `${baseUrl}${path}`;
    if (path !== OAUTH_PATH) {
      connections.set(request, { selection, baseUrl, caller: () => resolveCaller(app.stores.db, request, resource) });
      return;
    }
    try {
      const caller = await resolveOAuthCaller(app.stores.db, request, resource);
      connections.set(request, { selection, baseUrl, caller: async () => caller });
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      const problem = request.headers.authorization ? ', error="invalid_token"' : '';
      return reply.code(401).header('www-authenticate', bearerChallenge(app, request, path, problem)).send({ message: error.message });
    }
  };
}
