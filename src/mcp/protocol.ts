/**
 * The JSON-RPC 2.0 envelope of the tool endpoint (docs/mcp.md, "Protocol"). The body is parsed and
 * checked here before anything else looks at it, so every framing problem becomes a JSON-RPC
 * error sent with HTTP 200.
 */
import type { FastifyReply } from 'fastify';
import { wellFormedValue } from '../kit/well-formed.ts';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const AUTH_ERROR = -32001;

/** Newest first; the client's version is echoed when it is one of these. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

export type RpcId = string | number | null;

export interface RpcRequest {
  id: RpcId;
  method: string;
  params: Record<string, unknown>;
  /** A notification has no `id` member and gets no reply. */
  notification: boolean;
}

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcReply =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorBody };

/**
 * Thrown anywhere below the route; becomes the `error` member of the reply, sent with HTTP 200
 * except where MCP 2026-07-28 wants 400 for what fails before a method runs (revision.ts).
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
  ) {
    super(message);
  }
}

/** A value the client sent, as an error message quotes it: cut at `max` characters. */
export const quoted = (value: string, max = 100) => (value.length > max ? `${value.slice(0, max)}...` : value);

export function replyResult(id: RpcId, result: unknown): RpcReply {
  return { jsonrpc: '2.0', id, result };
}

export function replyError(id: RpcId, error: RpcError): RpcReply {
  const body: RpcErrorBody = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return { jsonrpc: '2.0', id, error: body };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validId(value: unknown): value is RpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The id to answer with when the envelope is broken: the request's own when it is usable. */
export function salvageId(body: unknown): RpcId {
  return isObject(body) && validId(body.id) ? body.id : null;
}

/** Text of the body to a checked request, its strings well-formed (kit/well-formed.ts); throws RpcError with the code the contract names. */
export function parseEnvelope(text: string): RpcRequest {
  let body: unknown;
  try {
    body = wellFormedValue(JSON.parse(text));
  } catch {
    throw new RpcError(PARSE_ERROR, 'Parse error: the body is not valid JSON');
  }
  if (Array.isArray(body)) throw new RpcError(INVALID_REQUEST, 'Invalid request: batches are not supported');
  if (!isObject(body)) throw new RpcError(INVALID_REQUEST, 'Invalid request: the body must be a JSON-RPC object');
  if (body.jsonrpc !== '2.0') throw new RpcError(INVALID_REQUEST, 'Invalid request: jsonrpc must be "2.0"');
  if (typeof body.method !== 'string' || body.method === '') {
    throw new RpcError(INVALID_REQUEST, 'Invalid request: method is missing');
  }
  const notification = !('id' in body);
  if (!notification && !validId(body.id)) {
    throw new RpcError(INVALID_REQUEST, 'Invalid request: id must be a string, a number or null');
  }
  if (body.params !== undefined && !isObject(body.params)) {
    throw new RpcError(INVALID_PARAMS, 'Invalid params: params must be an object');
  }
  return {
    id: notification ? null : (body.id as RpcId),
    method: body.method,
    params: (body.params as Record<string, unknown> | undefined) ?? {},
    notification,
  };
}

export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && (PROTOCOL_VERSIONS as readonly string[]).includes(requested)
    ? requested
    : PROTOCOL_VERSIONS[0];
}

/** A JSON-RPC reply (also an error) goes out with HTTP 200 unless a refusal names another status. */
export function sendRpc(reply: FastifyReply, body: RpcReply, status = 200): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** An MCP tool result: the payload as text and as structured content. */
export function toolResult(payload: Record<string, unknown>, isError = false) {
  return {
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    structuredContent: payload,
    isError,
  };
}
