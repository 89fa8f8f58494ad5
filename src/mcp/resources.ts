/**
 * resources/list and resources/read: the endpoint's only resources are its MCP Apps (apps/). They
 * hold no data, so any caller of the connection may read them; a connection narrowed with
 * `?tools=` sees the apps of its tools only.
 */
import { APPS, appAt, listedApp, readApp } from './apps/index.ts';
import { INVALID_PARAMS, RpcError, quoted } from './protocol.ts';
import { findTool } from './tools/index.ts';
import type { ToolSelection } from './tools/kit/selection.ts';

const appsOf = (selection: ToolSelection) => APPS.filter((a) => findTool(a.tool, selection));

export function listResources(params: Record<string, unknown>, selection: ToolSelection) {
  if (params.cursor !== undefined) throw new RpcError(INVALID_PARAMS, 'Invalid cursor: every resource is on the first page');
  return { resources: appsOf(selection).map(listedApp) };
}

/** Resource not found is -32602 (MCP SEP-2164), naming the URI (cut at 200 characters). */
export function readResource(params: Record<string, unknown>, selection: ToolSelection) {
  const uri = params.uri;
  if (typeof uri !== 'string') throw new RpcError(INVALID_PARAMS, 'Invalid params: uri must be a string');
  const app = appAt(uri);
  if (!app || !findTool(app.tool, selection)) {
    throw new RpcError(INVALID_PARAMS, `Resource not found: ${quoted(uri, 200)}`);
  }
  return readApp(app);
}
