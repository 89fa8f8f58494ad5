import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError, sendError } from '../http/errors.ts';
import { DomainError, InvalidInput, Unavailable, type DomainErrorKind } from '../kit/errors.ts';
import { visibilityOf } from '../analytics/permissions.ts';
import {
  AUTH_ERROR,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  RpcError,
  negotiateVersion,
  parseEnvelope,
  replyError,
  replyResult,
  salvageId,
  type RpcRequest,
} from './protocol.ts';
import { resolveCaller, resolveOAuthCaller, type Caller } from './caller.ts';
import { originAllowed } from './origin.ts';
import { publicBase } from './public-base.ts';
import { TOOL_FAMILIES, findTool, inputSchemaOf, toolList } from './tools/index.ts';
import { parseSelection, type ToolSelection } from './tools/kit/selection.ts';
import { InvalidRequest, type ToolContext } from './tools/kit/tool.ts';
import { workspacesListTool } from './tools/families/workspaces.ts';

const SERVER_INFO = { name: 'storelens', title: 'Storelens analytics', version: '0.1.0' };
/** Also the conventions every tool shares, said once here instead of in each tool's schema. */
const INSTRUCTIONS =
  'Storelens marketing analytics for one or more online stores. Start with metadata.list_schema to see ' +
  'metrics, breakdowns and sources, then analytics.query for numbers that match the dashboard. Dates are ' +
  'YYYY-MM-DD (UTC); a range left out is the last 7 days up to today. Attribution arguments left out take the ' +
  'saved dashboard settings.';

/** Largest accepted body; anything bigger is refused with -32600 before parsing. */
export const MCP_BODY_LIMIT = 1024 * 1024;

function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(arguments)', message: issue.message }));
}

function invalidArguments(tool: string, error: z.ZodError): RpcError {
  const issues = issuesOf(error);
  const text = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new RpcError(INVALID_PARAMS, `Invalid arguments for tool ${tool}: ${text}`, { issues });
}

function toolResult(payload: Record<string, unknown>, isError = false) {
  return {
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    structuredContent: payload,
    isError,
  };
}

/** Tool error codes of the domain errors a tool result carries (docs/mcp.md); an Unavailable names its reason instead. */
const TOOL_ERROR_CODES: Record<Exclude<DomainErrorKind, 'invalid_input'>, string> = {
  access_denied: 'permission_denied',
  not_found: 'not_found',
  conflict: 'conflict',
  unavailable: 'unavailable',
};

/** Bad arguments are JSON-RPC's -32602; every other refusal is a tool result the assistant can explain. */
function refusal(error: DomainError) {
  if (error.kind === 'invalid_input') throw new RpcError(INVALID_PARAMS, `Invalid arguments: ${error.message}`);
  const code = error instanceof Unavailable ? error.reason : TOOL_ERROR_CODES[error.kind];
  return toolResult({ error: { code, message: error.message } }, true);
}

/** One request's view of the endpoint: who calls (resolved when a method needs it) and which tools it sees. */
interface Connection {
  caller(): Promise<Caller>;
  selection: ToolSelection;
}

async function callTool(app: FastifyInstance, caller: Caller, selection: ToolSelection, params: Record<string, unknown>) {
  const name = params.name;
  if (typeof name !== 'string') throw new RpcError(INVALID_PARAMS, 'Invalid params: name must be a string');
  const rawArgs = params.arguments ?? {};
  if (typeof rawArgs !== 'object' || rawArgs === null || Array.isArray(rawArgs)) {
    throw new RpcError(INVALID_PARAMS, 'Invalid params: arguments must be an object');
  }
  const multi = caller.kind === 'oauth';
  const tool = name === workspacesListTool.name && multi ? workspacesListTool : findTool(name, selection);
  if (!tool) throw new RpcError(METHOD_NOT_FOUND, `Unknown tool: ${name}`);

  const parsed = inputSchemaOf(tool, multi).safeParse(rawArgs);
  if (!parsed.success) throw invalidArguments(name, parsed.error);
  const { workspace_id: workspaceArg, ...input } = parsed.data as Record<string, unknown>;

  try {
    // workspaces_list reads only the connection itself; every other tool acts on one workspace.
    const scope =
      caller.kind === 'key'
        ? caller.auth
        : tool === workspacesListTool
          ? { workspaceId: 0, keyId: 0, scopes: [], visibility: visibilityOf([]) }
          : await caller.grant(workspaceArg as string | undefined);
    const limitKey = scope.keyId ? `key:${scope.keyId}` : caller.actor;
    await app.limits.consume(limitKey);
    const ctx: ToolContext = {
      db: app.stores.db,
      ch: app.stores.ch,
      workspaceId: scope.workspaceId,
      scopes: scope.scopes,
      visibility: scope.visibility,
      actor: caller.actor,
      now: Date.now,
      workspaces: caller.kind === 'oauth' ? caller.workspaces : [],
    };
    return toolResult(await app.inFlight.run(limitKey, () => tool.run(ctx, input)));
  } catch (error) {
    if (error instanceof DomainError) return refusal(error);
    if (error instanceof InvalidRequest) return toolResult({ error: { code: 'invalid_request', message: error.message } }, true);
    throw error;
  }
}

async function dispatch(app: FastifyInstance, connection: Connection, rpc: RpcRequest): Promise<unknown> {
  switch (rpc.method) {
    case 'initialize':
      return {
        protocolVersion: negotiateVersion(rpc.params.protocolVersion),
        capabilities: { tools: { listChanged: false } },
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      };
    case 'ping':
      return {};
    case 'tools/list': {
      const caller = await connection.caller();
      if (rpc.params.cursor !== undefined) throw new RpcError(INVALID_PARAMS, 'Invalid cursor: every tool is on the first page');
      return { tools: toolList(caller.kind === 'oauth', connection.selection) };
    }
    case 'tools/call': {
      const caller = await connection.caller();
      return callTool(app, caller, connection.selection, rpc.params);
    }
    default:
      throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${rpc.method}`);
  }
}

function send(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

const OAUTH_PATH = '/mcp/oauth';
const EXPOSED_HEADERS = 'www-authenticate, retry-after, ratelimit, ratelimit-policy';
const ALLOWED_REQUEST_HEADERS = 'authorization, content-type, accept, mcp-protocol-version, x-api-key, client-secret';
const resourceMetadataUrl = (base: string, path: string) => `${base}/.well-known/oauth-protected-resource${path}`;

/**
 * `POST /mcp` and `POST /mcp/oauth`: JSON responses only, no sessions, no event stream
 * (docs/mcp.md). Both refuse a foreign Origin with 403 first. `/mcp` resolves credentials only for
 * the methods that need them and answers every JSON-RPC reply with HTTP 200; `/mcp/oauth` wants
 * an OAuth access token on every request and answers HTTP 401 without one, which is what makes
 * MCP clients start OAuth on their own.
 */
export async function mcpRoute(app: FastifyInstance): Promise<void> {
  // The body is read as text so that broken JSON becomes -32700 instead of Fastify's 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MCP_BODY_LIMIT }, (_request, body, done) => done(null, body));

  // MCP transport rule against DNS rebinding, before anything else (docs/mcp.md, "Origin").
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (!originAllowed(origin, app.config)) return reply.code(403).send({ message: 'Origin not allowed' });
    // An allowed page may read the answer, the discovery and rate-limit headers included (CORS).
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', EXPOSED_HEADERS);
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
    // The gateway's own answers (the key's limits: 429 with Retry-After) stay HTTP, as on the data API.
    if (error instanceof HttpError) return sendError(reply, error);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, replyError(null, new RpcError(INVALID_REQUEST, `Invalid request: the body exceeds ${MCP_BODY_LIMIT} bytes`)));
    }
    if (error.statusCode && error.statusCode < 500) {
      return send(reply, replyError(null, new RpcError(INVALID_REQUEST, 'Invalid request')));
    }
    request.log.error({ err: error }, 'mcp request failed');
    return send(reply, replyError(null, new RpcError(INTERNAL_ERROR, 'Internal error')));
  });

  const connections = new WeakMap<FastifyRequest, Connection>();

  /** Tool selection (400) and, on /mcp/oauth, the access token (401): before the body is read. */
  const open = (path: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    let selection: ToolSelection;
    try {
      selection = parseSelection(request.query as Record<string, unknown>, TOOL_FAMILIES);
    } catch (error) {
      if (error instanceof InvalidInput) return reply.code(400).send({ message: error.message });
      throw error;
    }
    const base = publicBase(app.config, request);
    if (path !== OAUTH_PATH) {
      connections.set(request, { selection, caller: () => resolveCaller(app.stores.db, request, `${base}${path}`) });
      return;
    }
    try {
      const caller = await resolveOAuthCaller(app.stores.db, request, `${base}${path}`);
      connections.set(request, { selection, caller: async () => caller });
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      // RFC 6750 section 3 and RFC 9728 section 5.1: where to find the authorization server.
      const problem = request.headers.authorization ? ', error="invalid_token"' : '';
      return reply
        .code(401)
        .header('www-authenticate', `Bearer resource_metadata="${resourceMetadataUrl(base, path)}"${problem}`)
        .send({ message: error.message });
    }
  };

  const handle = (path: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const connection = connections.get(request)!;
    const text = typeof request.body === 'string' ? request.body : '';
    let rpc: RpcRequest;
    try {
      rpc = parseEnvelope(text);
    } catch (error) {
      let id = null;
      try {
        id = salvageId(JSON.parse(text));
      } catch {
        // not JSON: the id stays null
      }
      return send(reply, replyError(id, error as RpcError));
    }
    if (rpc.notification) return reply.code(202).send();
    try {
      return send(reply, replyResult(rpc.id, await dispatch(app, connection, rpc)));
    } catch (error) {
      if (error instanceof RpcError) {
        if (error.code === AUTH_ERROR) reply.header('www-authenticate', `Bearer resource_metadata="${resourceMetadataUrl(publicBase(app.config, request), path)}"`);
        return send(reply, replyError(rpc.id, error));
      }
      if (error instanceof HttpError) throw error;
      request.log.error({ err: error, method: rpc.method }, 'mcp method failed');
      return send(reply, replyError(rpc.id, new RpcError(INTERNAL_ERROR, 'Internal error')));
    }
  };

  for (const path of ['/mcp', OAUTH_PATH]) {
    app.post(path, { onRequest: open(path) }, handle(path));
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: path,
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send({ message: 'Method not allowed' }),
    });
    // CORS preflight of a browser client on an allowed origin (a foreign one got 403 above).
    app.options(path, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', ALLOWED_REQUEST_HEADERS)
        .header('access-control-max-age', '600')
        .send(),
    );
  }
}
