/**
 * `POST /webhooks/shopify` and `POST /webhooks/woocommerce` (docs/integrations.md): the platforms'
 * own order webhooks, unchanged. Each delivery names its shop in a header, is signed with the
 * shop's secret (base64 HMAC-SHA256 of the raw body), and is accepted once per delivery id.
 */
import crypto from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { bodyBytes, readBodiesAsBytes } from '../../http/raw-body.ts';
import { InvalidInput } from '../../kit/errors.ts';
import { findShopIntegration, type ShopPlatform } from '../../store/app/shop-integrations.ts';
import { isDeliveryKnown, recordDelivery } from '../../store/app/webhooks.ts';
import { findWorkspace } from '../../store/app/workspaces.ts';
import type { BatchWriter } from '../wal.ts';
import { addRefund, cancelStoredOrder, storedRefundDates, storeOrder, type ShopWorkspace } from './ingest.ts';
import { parsePlatformJson } from './parse-json.ts';
import { normaliseShopDomain, normaliseSiteUrl } from './shops.ts';
import { mapShopifyOrder, mapShopifyRefund } from './shopify.ts';
import { mapWooOrder, wooOrderId } from './woocommerce.ts';

/** Large orders (hundreds of line items) stay well under this. */
export const SHOP_WEBHOOK_BODY_LIMIT = 1024 * 1024;

export const SHOPIFY_ORDER_TOPICS = ['orders/create', 'orders/updated', 'orders/paid', 'orders/cancelled'];
export const WOO_ORDER_TOPICS = ['order.created', 'order.updated', 'order.restored'];

const INVALID_SIGNATURE = 'Invalid webhook signature';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
};

/** Base64 HMAC-SHA256 of the raw body (its bytes as they came), the scheme of both platforms. */
export function platformSignature(secret: string, body: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(body).digest('base64');
}

function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

interface Verified {
  workspace: ShopWorkspace;
  deliveryKey: string;
  topic: string;
  /** The body as text, once its bytes are verified. */
  body: string;
}

type Outcome = { status: number; body: Record<string, string> };

const accepted: Outcome = { status: 202, body: { status: 'accepted' } };
const ignored = (reason: string): Outcome => ({ status: 200, body: { status: 'ignored', reason } });

export const platformWebhookRoutes: FastifyPluginAsync<{ writer: BatchWriter }> = async (app, { writer }) => {
  const { db, ch, secrets } = app.stores;

  // WooCommerce's creation ping is a form post; it is read as bytes like every webhook body.
  readBodiesAsBytes(app, ['application/json', 'text/plain', 'application/x-www-form-urlencoded']);

  /** Finds the shop's workspace and checks the signature; 401 for an unknown shop or a bad signature alike. */
  async function verify(
    request: FastifyRequest,
    platform: ShopPlatform,
    shop: string | null,
    signature: string,
    deliveryId: string,
    topic: string,
  ): Promise<Verified> {
    const bytes = bodyBytes(request.body);
    const integration = shop ? await findShopIntegration(db, secrets, platform, shop) : undefined;
    if (!integration || !signature || !signatureMatches(platformSignature(integration.secret, bytes), signature)) {
      request.log.info({ platform, shop, known: Boolean(integration) }, 'shop webhook refused');
      throw new HttpError(401, INVALID_SIGNATURE);
    }
    if (!deliveryId || deliveryId.length > 200) throw new InvalidInput('the delivery id header is missing or longer than 200 characters');
    const workspace = await findWorkspace(db, integration.workspaceId);
    if (!workspace) throw new HttpError(401, INVALID_SIGNATURE);
    return { workspace: { id: workspace.id, currency: workspace.currency }, deliveryKey: `${platform}:${deliveryId}`, topic, body: bytes.toString('utf8') };
  }

  /** Runs a verified delivery once: a replay answers 200 and changes nothing. */
  async function once(reply: FastifyReply, delivery: Verified, handle: () => Promise<Outcome>): Promise<FastifyReply> {
    const { workspace, deliveryKey } = delivery;
    if (await isDeliveryKnown(db, workspace.id, deliveryKey)) return reply.code(200).send({ status: 'duplicate' });
    // A rejected order (OrderRejected, an InvalidInput) answers 400 and records nothing.
    const outcome = await handle();
    if (outcome.status >= 300) return reply.code(outcome.status).send(outcome.body);
    const first = await recordDelivery(db, workspace.id, deliveryKey);
    return first ? reply.code(outcome.status).send(outcome.body) : reply.code(200).send({ status: 'duplicate' });
  }

  const unhandled = (request: FastifyRequest, delivery: Verified): Outcome => {
    request.log.info({ topic: delivery.topic, workspace: delivery.workspace.id }, 'shop webhook topic ignored');
    return ignored(`topic ${delivery.topic || '(none)'} is not used`);
  };

  app.post('/webhooks/shopify', { bodyLimit: SHOP_WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const delivery = await verify(
      request,
      'shopify',
      normaliseShopDomain(header(request, 'x-shopify-shop-domain')),
      header(request, 'x-shopify-hmac-sha256'),
      header(request, 'x-shopify-webhook-id'),
      header(request, 'x-shopify-topic'),
    );
    return once(reply, delivery, async () => {
      const { workspace, topic, body } = delivery;
      if (SHOPIFY_ORDER_TOPICS.includes(topic)) {
        // Test orders are stored too (status `test`): never a sale, but reconciliation counts them.
        await storeOrder(ch, writer, workspace, mapShopifyOrder(parsePlatformJson(body)));
        return accepted;
      }
      if (topic === 'refunds/create') {
        const { orderId, refund } = mapShopifyRefund(parsePlatformJson(body), workspace.currency);
        const outcome = await addRefund(ch, writer, workspace, orderId, refund);
        // Not recorded as delivered: Shopify retries, and by then the order is stored.
        if (outcome === 'no-order') return { status: 409, body: { message: `order ${orderId} is not stored yet; retry after its orders/create delivery` } };
        return outcome === 'added' ? accepted : ignored('refund already stored');
      }
      return unhandled(request, delivery);
    });
  });

  app.post('/webhooks/woocommerce', { bodyLimit: SHOP_WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const raw = bodyBytes(request.body);
    // Sent once when the webhook is saved, unsigned and without the X-WC-* headers; nothing is stored.
    if (/^webhook_id=\d{1,20}$/.test(raw.toString('latin1').trim())) return reply.code(200).send({ status: 'ping' });
    const delivery = await verify(
      request,
      'woocommerce',
      normaliseSiteUrl(header(request, 'x-wc-webhook-source')),
      header(request, 'x-wc-webhook-signature'),
      header(request, 'x-wc-webhook-delivery-id'),
      header(request, 'x-wc-webhook-topic'),
    );
    // WooCommerce derives a delivery id from the webhook id and the current second, so two
    // deliveries of one second share it: the body's hash tells them apart.
    delivery.deliveryKey += `:${crypto.createHash('sha256').update(raw).digest('hex').slice(0, 16)}`;
    return once(reply, delivery, async () => {
      const { workspace, topic, body } = delivery;
      if (WOO_ORDER_TOPICS.includes(topic)) {
        const json = parsePlatformJson(body);
        const order = mapWooOrder(json, await storedRefundDates(ch, workspace, wooOrderId(json)));
        await storeOrder(ch, writer, workspace, order);
        return accepted;
      }
      if (topic === 'order.deleted') {
        const cancelled = await cancelStoredOrder(ch, writer, workspace, wooOrderId(parsePlatformJson(body)));
        return cancelled ? accepted : ignored('order not stored');
      }
      return unhandled(request, delivery);
    });
  });
};
