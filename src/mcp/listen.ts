/**
 * `subscriptions/listen` (MCP 2026-07-28), which replaces the GET event stream and
 * resources/subscribe: the client names the notifications it wants and the server acknowledges
 * the ones it will send. This endpoint sends none (its tools and apps change only with a release:
 * `listChanged: false`, no subscriptions), so the answer is a finished event stream: the
 * acknowledgement with an empty filter, then the subscription's result, which ends it.
 */
import { SubscriptionsListenRequestParamsSchema } from '@modelcontextprotocol/core';
import type { FastifyReply } from 'fastify';
import { INVALID_PARAMS, RpcError, type RpcRequest } from './protocol.ts';

const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

export function answerListen(reply: FastifyReply, rpc: RpcRequest, resultMeta: Record<string, unknown>): FastifyReply {
  if (!SubscriptionsListenRequestParamsSchema.safeParse(rpc.params).success) {
    throw new RpcError(INVALID_PARAMS, "Invalid params: 'notifications' is required and must be a valid SubscriptionFilter");
  }
  const tag = { [SUBSCRIPTION_ID_KEY]: rpc.id };
  const body =
    event({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: {}, _meta: tag } }) +
    event({ jsonrpc: '2.0', id: rpc.id, result: { resultType: 'complete', _meta: { ...tag, ...resultMeta } } });
  return reply.code(200).header('content-type', 'text/event-stream').header('cache-control', 'no-cache').send(body);
}
