import type { FastifyInstance } from 'fastify';

/** Test helpers for the tool endpoint: one POST /mcp through app.inject. */
export interface RpcResponse {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

export async function postMcp(app: FastifyInstance, payload: unknown, headers: Record<string, string> = {}): Promise<RpcResponse> {
  const response = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: response.body,
    body: response.body ? JSON.parse(response.body) : undefined,
  };
}

/** Bearer credentials of a data-API header pair. */
export function bearer(headers: Record<string, string>): Record<string, string> {
  return { authorization: `Bearer ${headers['x-api-key']}:${headers['client-secret']}` };
}

let nextId = 1;

/** Calls a tool and returns the JSON-RPC result (or error) member. */
export async function callTool(app: FastifyInstance, headers: Record<string, string>, name: string, args: unknown = {}) {
  const response = await postMcp(app, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }, headers);
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.text}`);
  return response.body as { result?: { structuredContent: any; isError: boolean; content: { type: string; text: string }[] }; error?: { code: number; message: string; data?: any } };
}

/** The structured result of a successful call; throws on an error. */
export async function toolOk(app: FastifyInstance, headers: Record<string, string>, name: string, args: unknown = {}) {
  const reply = await callTool(app, headers, name, args);
  if (!reply.result || reply.result.isError) throw new Error(`${name} failed: ${JSON.stringify(reply)}`);
  return reply.result.structuredContent;
}
