/**
 * `POST /webhooks/orders?workspace=<id>` (docs/collection.md section 5): platform orders,
 * refunds and cancellations, signed with the workspace's webhook secret. Each delivery carries
 * the whole order; the newest `updated_at` wins in the ReplacingMergeTree, and a delivery id is
 * accepted once.
 */
import crypto from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { bodyBytes, readBodiesAsBytes } from '../http/raw-body.ts';
import { InvalidInput } from '../kit/errors.ts';
import { findWebhookSecret, isDeliveryKnown, recordDelivery } from '../store/app/webhooks.ts';
import { findWorkspace } from '../store/app/workspaces.ts';
import { decisiveStatus, orderVersion } from './fields.ts';
import { orderRow } from './row-schemas.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { parseJsonBody } from './collector.ts';
import type { BatchWriter } from './wal.ts';

export const WEBHOOK_BODY_LIMIT = 256 * 1024;
/** A signed delivery older (or newer) than this is refused: it is a replay, not a retry. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const ORDER_TYPES = ['order.created', 'order.updated', 'order.refunded', 'order.cancelled'] as const;

const delivery = z.object({
  delivery_id: z.string({ error: 'is required' }).min(1, 'is required').max(200, 'at most 200 characters'),
  type: z.enum(ORDER_TYPES, { error: `expected one of ${ORDER_TYPES.join(', ')}` }),
  order: orderRow,
});

/** `sha256=` + hex HMAC of `<timestamp>.<raw body>`, over the body's bytes as they came. */
export function signWebhook(secret: string, timestampSeconds: string, body: string | Buffer): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body).digest('hex')}`;
}

function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

const unauthorized = (message: string) => new HttpError(401, message);
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export const orderWebhookRoute: FastifyPluginAsync<{ writer: BatchWriter }> = async (app, { writer }) => {
  readBodiesAsBytes(app, ['application/json', 'text/plain']);
  app.post('/webhooks/orders', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const workspaceId = Number((request.query as { workspace?: string }).workspace);
    const secret = Number.isSafeInteger(workspaceId) && workspaceId > 0
      ? await findWebhookSecret(app.stores.db, app.stores.secrets, workspaceId)
      : undefined;
    const body = bodyBytes(request.body);
    const sentAt = header(request.headers['x-storelens-timestamp']);
    const signature = header(request.headers['x-storelens-signature']);
    if (!secret || !/^\d{1,12}$/.test(sentAt) || !signatureMatches(signWebhook(secret, sentAt, body), signature)) {
      throw unauthorized('Invalid webhook signature');
    }
    if (Math.abs(Date.now() / 1000 - Number(sentAt)) > WEBHOOK_TOLERANCE_SECONDS) {
      throw unauthorized('Webhook timestamp is outside the allowed window');
    }
    const parsed = delivery.safeParse(parseJsonBody(body.toString('utf8')));
    if (!parsed.success) throw new InvalidInput(describeIssues(parsed.error));
    const { delivery_id: deliveryId, type, order } = parsed.data;
    if (await isDeliveryKnown(app.stores.db, workspaceId, deliveryId)) return reply.code(200).send({ status: 'duplicate' });
    // An order without a currency is in the workspace's; one in another currency is refused.
    const workspaceCurrency = ((await findWorkspace(app.stores.db, workspaceId))?.currency ?? '').toUpperCase();
    if (order.currency !== '' && order.currency !== workspaceCurrency) {
      throw new InvalidInput(`order.currency: ${order.currency} does not match the workspace currency ${workspaceCurrency}; nothing was stored`);
    }

    const { updated_at: updatedAt, ...fields } = order;
    fields.currency = workspaceCurrency;
    const status = type === 'order.cancelled' ? decisiveStatus(fields.status, 'cancelled') : fields.status;
    // Without updated_at the order is as new as its receipt (versions are microseconds).
    const version = updatedAt ? orderVersion(updatedAt) : Date.now() * 1000;
    await writer.append({ orders: [{ store_id: workspaceId, ...fields, status, version }] });
    const first = await recordDelivery(app.stores.db, workspaceId, deliveryId);
    return first ? reply.code(202).send({ status: 'accepted' }) : reply.code(200).send({ status: 'duplicate' });
  });
};
