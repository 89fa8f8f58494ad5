/**
 * The MCP methods the tool endpoint answers (docs/mcp.md): initialize, ping, server/discover,
 * tools/list, tools/call, and the apps' resources, the 2025 way or the 2026-07-28 way (revision.ts).
 */
import type { FastifyInstance } from 'fastify';
import { visibilityOf } from '../analytics/permissions.ts';
import type { Caller } from './caller.ts';
import type { Connection } from './connection.ts';
import { invalidArguments, toolRefusal } from './errors.ts';
import { INVALID_PARAMS, METHOD_NOT_FOUND, RpcError, negotiateVersion, quoted, toolResult, type RpcRequest } from './protocol.ts';
import { findTool, inputSchemaOf, nearestTool, toolList } from './tools/index.ts';
import type { ToolSelection } from './tools/kit/selection.ts';
import { TEXT_MAX, type ToolContext } from './tools/kit/tool.ts';
import { workspacesListTool } from './tools/families/workspaces.ts';
import { signDownload } from '../http/download-links.ts';
import { keyLane, runInLimits } from '../http/request-chain.ts';
import { getSettings } from '../store/app/workspaces.ts';
import { UTC } from '../kit/calendar/zones.ts';
import { APP_MIME_TYPE, APPS_EXTENSION } from './apps/index.ts';
import { listResources, readResource } from './resources.ts';
import { SERVER_INFO_KEY, STATELESS_VERSIONS, type Revision } from './revision.ts';

export const SERVER_INFO = { name: 'storelens', title: 'Storelens analytics', version: '0.1.0' };
/** Also the conventions every tool shares, said once here instead of in each tool's schema. */
const INSTRUCTIONS =
  'Storelens marketing analytics for one or more online stores. Start with metadata.list_schema to see ' +
  'metrics, breakdowns and sources, then analytics.query for numbers that match the dashboard. Dates are ' +
  'YYYY-MM-DD days of `timezone` (IANA name, default the workspace\'s, named in metadata.list_schema): date_from the ' +
  'first, date_to the last, included; a range left out is the last 7 days up to today. limit and offset page a list. ' +
  `Text arguments take at most ${TEXT_MAX} characters unless their schema says otherwise. Attribution arguments left out (ignore_sources ` +
  'included) take the saved dashboard settings. A channel filter `meta` covers its family (facebook, instagram, ...). ' +
  'Money is in the workspace currency; ratios (ctr, cr, margins) are fractions. A description ending "Basis: report" ' +
  'counts revenue and conversions as analytics.query credits them (the result names the attribution); "Basis: orders" ' +
  'counts each order whole, where or when it happened, with no attribution model. On a connection with several ' +
  'workspaces every tool takes workspace_id, an id from workspaces_list.';

/** -32601 naming the tool (cut at 100 characters) and, when one is close, the tool it likely meant. */
function unknownTool(name: string, selection: ToolSelection): RpcError {
  const shown = quoted(name);
  const near = nearestTool(name, selection);
  return new RpcError(METHOD_NOT_FOUND, near ? `Unknown tool: ${shown}. Did you mean ${near}?` : `Unknown tool: ${shown}`);
}

async function callTool(app: FastifyInstance, caller: Caller, connection: Connection, params: Record<string, unknown>) {
  const name = params.name;
  if (typeof name !== 'string') throw new RpcError(INVALID_PARAMS, 'Invalid params: name must be a string');
  const rawArgs = params.arguments ?? {};
  if (typeof rawArgs !== 'object' || rawArgs === null || Array.isArray(rawArgs)) {
    throw new RpcError(INVALID_PARAMS, 'Invalid params: arguments must be an object');
  }
  const multi = caller.kind === 'oauth';
  const tool = name === workspacesListTool.name && multi ? workspacesListTool : findTool(name, connection.selection);
  if (!tool) throw unknownTool(name, connection.selection);

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
    const ctx: ToolContext = {
      db: app.stores.db,
      ch: app.stores.ch,
      results: app.stores.results,
      workspaceId: scope.workspaceId,
      scopes: scope.scopes,
      visibility: scope.visibility,
      actor: caller.actor,
      now: Date.now,
      timeZone: scope.workspaceId ? (await getSettings(app.stores.db, scope.workspaceId)).timezone : UTC,
      workspaces: caller.kind === 'oauth' ? caller.workspaces : [],
      signDownload: (kind, query) =>
        signDownload(app.stores.secrets, connection.baseUrl, { workspaceId: scope.workspaceId, keyId: scope.keyId, scopes: scope.scopes, kind, query }, Date.now()),
      assistantConfigured: app.config.llm !== null,
    };
    const lane = scope.keyId ? keyLane(scope.keyId) : caller.actor;
    return toolResult(await runInLimits(app, lane, () => tool.run(ctx, input)));
  } catch (error) {
    return toolRefusal(error);
  }
}

const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
};

/**
 * What a 2026-07-28 client may cache and for how long (`ttlMs`, `cacheScope`): the tools, the apps
 * and the server's description change only with a new release. The tool list differs by
 * credentials (an OAuth connection's has workspace_id), so only the caller may keep it; the apps
 * and the description are the same for everyone.
 */
const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_SCOPE: Record<string, 'public' | 'private'> = {
  'server/discover': 'public',
  'tools/list': 'private',
  'resources/list': 'public',
  'resources/templates/list': 'public',
  'resources/read': 'public',
};

/** The methods of 2026-07-28 this endpoint has (subscriptions/listen is answered in handler.ts); the rest are -32601 there. */
const STATELESS_METHODS = new Set(['server/discover', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read']);

/** The `_meta` every 2026-07-28 result carries. */
export const resultMeta = () => ({ [SERVER_INFO_KEY]: SERVER_INFO });

/** A result as 2026-07-28 sends it: `resultType`, the cache hints of a cacheable method, the server's identity. */
function statelessResult(method: string, result: Record<string, unknown>) {
  const scope = CACHE_SCOPE[method];
  return { ...result, resultType: 'complete', ...(scope ? { ttlMs: CACHE_TTL_MS, cacheScope: scope } : {}), _meta: resultMeta() };
}

/** The result of one JSON-RPC request of either revision; a refusal is thrown as RpcError. */
export async function dispatch(app: FastifyInstance, connection: Connection, rpc: RpcRequest, revision: Revision): Promise<unknown> {
  if (revision.stateless && !STATELESS_METHODS.has(rpc.method)) throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${quoted(rpc.method)}`);
  const result = await answer(app, connection, rpc);
  // server/discover exists in 2026-07-28 only, so it has that shape whoever asks.
  return revision.stateless || rpc.method === 'server/discover' ? statelessResult(rpc.method, result) : result;
}

async function answer(app: FastifyInstance, connection: Connection, rpc: RpcRequest): Promise<Record<string, unknown>> {
  switch (rpc.method) {
    case 'initialize':
      return {
        protocolVersion: negotiateVersion(rpc.params.protocolVersion),
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      };
    case 'server/discover':
      return { supportedVersions: [...STATELESS_VERSIONS], capabilities: CAPABILITIES, instructions: INSTRUCTIONS };
    case 'ping':
      return {};
    case 'tools/list': {
      const caller = await connection.caller();
      if (rpc.params.cursor !== undefined) throw new RpcError(INVALID_PARAMS, 'Invalid cursor: every tool is on the first page');
      return { tools: toolList(caller.kind === 'oauth', connection.selection) };
    }
    case 'tools/call': {
      const caller = await connection.caller();
      return callTool(app, caller, connection, rpc.params);
    }
    case 'resources/list':
      await connection.caller();
      return listResources(rpc.params, connection.selection);
    case 'resources/templates/list':
      await connection.caller();
      return { resourceTemplates: [] };
    case 'resources/read':
      await connection.caller();
      return readResource(rpc.params, connection.selection);
    default:
      throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${quoted(rpc.method)}`);
  }
}
