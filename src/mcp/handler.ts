import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerChallenge, connectionOf } from './connection.ts';
import { methodFailure } from './errors.ts';
import { answerListen } from './listen.ts';
import { dispatch, resultMeta } from './methods.ts';
import { parseEnvelope, replyError, replyResult, salvageId, sendRpc, type RpcError, type RpcRequest } from './protocol.ts';
import { batchRefusal, checkNotification, revisionOf, standardHeaders, type Revision } from './revision.ts';

/** A body whose envelope is broken, as JSON when it is JSON. */
function parsedOrNothing(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * `POST /mcp` and `POST /mcp/oauth`: one JSON-RPC request, answered with HTTP 200 (a notification
 * with 202); a framing problem of the body is a JSON-RPC error too. Each request names its own
 * revision (revision.ts): 2026-07-28's transport refusals go out with HTTP 400.
 */
export function rpcHandler(app: FastifyInstance, path: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const text = typeof request.body === 'string' ? request.body : '';
    let rpc: RpcRequest;
    try {
      rpc = parseEnvelope(text);
    } catch (error) {
      const body = parsedOrNothing(text);
      const refusal = batchRefusal(body) ?? (error as RpcError);
      return sendRpc(reply, replyError(salvageId(body), refusal), refusal.httpStatus);
    }
    let revision: Revision;
    try {
      const headers = standardHeaders(request.headers);
      if (rpc.notification) {
        checkNotification(rpc, headers);
        return reply.code(202).send();
      }
      revision = revisionOf(rpc, headers);
    } catch (error) {
      const refusal = error as RpcError;
      return sendRpc(reply, replyError(rpc.id, refusal), refusal.httpStatus);
    }
    const connection = connectionOf(request);
    try {
      if (revision.stateless && rpc.method === 'subscriptions/listen') {
        await connection.caller();
        return answerListen(reply, rpc, resultMeta());
      }
      return sendRpc(reply, replyResult(rpc.id, await dispatch(app, connection, rpc, revision)));
    } catch (error) {
      return sendRpc(reply, methodFailure(request, reply, rpc, error, () => bearerChallenge(app, request, path)));
    }
  };
}
