/**
 * `POST /webhooks/orders?workspace=<id>` (docs/collection.md section 5): platform orders,
 * refunds and cancellations, signed with the workspace's webhook secret. Each delivery carries
 * the whole order; the newest `updated_at` wins in the ReplacingMergeTree, and a delivery id is
 * accepted once.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { InvalidInput } from '../kit/errors.ts';
import { findWebhookSecret, isDeliveryKnown, recordDelivery } from '../store/app/webhooks.ts';
import { flag, timestamp } from './fields.ts';
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
  order: orderRow.extend({
    updated_at: timestamp.optional(),
    cancelled: flag.optional().default(0),
  }),
});

/** `sha256=` + hex HMAC of `<timestamp>.<raw body>`. */
export function signWebhook(secret: string, timestampSeconds: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`;
}

function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

const unauthorized = (message: string) => new HttpError(401, message);
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export async function webhookRoutes(app: FastifyInstance, writer: BatchWriter): Promise<void> {
  app.post('/webhooks/orders', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const workspaceId = Number((request.query as { workspace?: string }).workspace);
    const secret = Number.isSafeInteger(workspaceId) && workspaceId > 0
      ? await findWebhookSecret(app.stores.db, app.stores.secrets, workspaceId)
      : undefined;
    const body = typeof request.body === 'string' ? request.body : '';
    const sentAt = header(request.headers['x-storelens-timestamp']);
    const signature = header(request.headers['x-storelens-signature']);
    if (!secret || !/^\d{1,12}$/.test(sentAt) || !signatureMatches(signWebhook(secret, sentAt, body), signature)) {
      throw unauthorized('Invalid webhook signature');
    }
    if (Math.abs(Date.now() / 1000 - Number(sentAt)) > WEBHOOK_TOLERANCE_SECONDS) {
      throw unauthorized('Webhook timestamp is outside the allowed window');
    }
    const parsed = delivery.safeParse(parseJsonBody(body));
    if (!parsed.success) throw new InvalidInput(describeIssues(parsed.error));
    const { delivery_id: deliveryId, type, order } = parsed.data;
    if (await isDeliveryKnown(app.stores.db, workspaceId, deliveryId)) return reply.code(200).send({ status: 'duplicate' });

    const { updated_at: updatedAt, ...fields } = order;
    const version = updatedAt ? Date.parse(`${updatedAt.replace(' ', 'T')}Z`) : Date.now();
    await writer.append({
      orders: [{ store_id: workspaceId, ...fields, cancelled: type === 'order.cancelled' ? 1 : fields.cancelled, version }],
    });
    const first = await recordDelivery(app.stores.db, workspaceId, deliveryId);
    return first ? reply.code(202).send({ status: 'accepted' }) : reply.code(200).send({ status: 'duplicate' });
  });
}
