import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerChallenge, connectionOf } from './connection.ts';
import { methodFailure } from './errors.ts';
import { dispatch } from './methods.ts';
import { parseEnvelope, replyError, replyResult, salvageId, sendRpc, type RpcError, type RpcRequest } from './protocol.ts';

/** The id of a body whose envelope is broken: its own when it is JSON with a usable id. */
function idOfBroken(text: string) {
  try {
    return salvageId(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * `POST /mcp` and `POST /mcp/oauth`: one JSON-RPC request, answered with HTTP 200 (a notification
 * with 202); a framing problem of the body is a JSON-RPC error too.
 */
export function rpcHandler(app: FastifyInstance, path: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const text = typeof request.body === 'string' ? request.body : '';
    let rpc: RpcRequest;
    try {
      rpc = parseEnvelope(text);
    } catch (error) {
      return sendRpc(reply, replyError(idOfBroken(text), error as RpcError));
    }
    if (rpc.notification) return reply.code(202).send();
    try {
      return sendRpc(reply, replyResult(rpc.id, await dispatch(app, connectionOf(request), rpc)));
    } catch (error) {
      return sendRpc(reply, methodFailure(request, reply, rpc, error, () => bearerChallenge(app, request, path)));
    }
  };
}
