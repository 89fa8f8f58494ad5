/**
 * The tool endpoint's error mapping (docs/architecture.md, "Errors"), in one place: a tool's
 * refusal, a method's failure, and what fails around the JSON-RPC layer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HttpError, sendError, toHttpError } from '../http/errors.ts';
import { DomainError, InvalidInput, Unavailable, fullMessage, type DomainErrorKind } from '../kit/errors.ts';
import { describeIssues, issueList } from '../kit/zod-issues.ts';
import { AUTH_ERROR, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, RpcError, replyError, sendRpc, toolResult, type RpcId, type RpcReply } from './protocol.ts';
import { InvalidRequest } from './tools/kit/tool.ts';

/** Largest accepted body; anything bigger is refused with -32600 before parsing. */
export const MCP_BODY_LIMIT = 1024 * 1024;

/** Tool error codes of the domain errors a tool result carries (docs/mcp.md); an Unavailable names its reason instead. */
const TOOL_ERROR_CODES: Record<Exclude<DomainErrorKind, 'invalid_input'>, string> = {
  access_denied: 'permission_denied',
  not_found: 'not_found',
  conflict: 'conflict',
  unavailable: 'unavailable',
};

/** Arguments a tool's schema refuses: -32602 naming each problem (`x is required`), the list in `data.issues`. */
export function invalidArguments(tool: string, error: z.ZodError): RpcError {
  const wording = { root: '(arguments)', requiredByName: true };
  return new RpcError(INVALID_PARAMS, `Invalid arguments for tool ${tool}: ${describeIssues(error, wording)}`, { issues: issueList(error, wording) });
}

/**
 * A tool's refusal as the assistant sees it: arguments wrong in themselves are JSON-RPC's -32602;
 * every other refusal is a tool result with a code it can explain. Anything else is rethrown.
 */
export function toolRefusal(error: unknown) {
  if (error instanceof InvalidRequest) return toolResult({ error: { code: 'invalid_request', message: error.message } }, true);
  if (!(error instanceof DomainError)) throw error;
  if (error.kind === 'invalid_input') throw new RpcError(INVALID_PARAMS, `Invalid arguments: ${fullMessage(error)}`);
  const code = error instanceof Unavailable ? error.reason : TOOL_ERROR_CODES[error.kind];
  return toolResult({ error: { code, message: error.message } }, true);
}

/**
 * A JSON-RPC method's failure as its reply; `challenge` is the WWW-Authenticate value an
 * authentication error carries. The web kit's own answers (429) are rethrown: they stay HTTP.
 */
export function methodFailure(request: FastifyRequest, reply: FastifyReply, rpc: { id: RpcId; method: string }, error: unknown, challenge: () => string): RpcReply {
  if (error instanceof RpcError) {
    if (error.code === AUTH_ERROR) reply.header('www-authenticate', challenge());
    return replyError(rpc.id, error);
  }
  if (error instanceof HttpError) throw error;
  request.log.error({ err: error, method: rpc.method }, 'mcp method failed');
  return replyError(rpc.id, new RpcError(INTERNAL_ERROR, 'Internal error'));
}

/**
 * What fails outside a JSON-RPC method. The gateway's own answers (the key's limits: 429 with
 * Retry-After) and a tool selection the URL gets wrong (400) stay HTTP, as on the data API; a body
 * Fastify refuses is -32600; anything else is -32603, logged.
 */
export function endpointErrorHandler(error: { statusCode?: number; code?: string }, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError || error instanceof InvalidInput) return sendError(reply, toHttpError(error));
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return sendRpc(reply, replyError(null, new RpcError(INVALID_REQUEST, `Invalid request: the body exceeds ${MCP_BODY_LIMIT} bytes`)));
  }
  if (error.statusCode && error.statusCode < 500) return sendRpc(reply, replyError(null, new RpcError(INVALID_REQUEST, 'Invalid request')));
  request.log.error({ err: error }, 'mcp request failed');
  return sendRpc(reply, replyError(null, new RpcError(INTERNAL_ERROR, 'Internal error')));
}
