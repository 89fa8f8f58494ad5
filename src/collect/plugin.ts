/**
 * The collection surface (docs/collection.md, docs/integrations.md): pixel, collector, survey
 * answers, form submissions, order webhooks (our own and the shop platforms') and the Shopify custom pixel, sharing one
 * durable batch writer, and the daily ad platform pull. Opening the writer replays what a crash
 * left, before the server listens.
 */
import type { FastifyInstance } from 'fastify';
import { addHealthCheck } from '../http/health.ts';
import { openBatchWriter } from './wal.ts';
import { collectDir } from './wal-segment.ts';
import { dropKnownTransactions } from './known-transactions.ts';
import { collectorRoutes } from './collector.ts';
import { surveyRoutes } from './survey-routes.ts';
import { formRoutes } from './form-routes.ts';
import { orderWebhookRoute } from './order-webhook.ts';
import { platformWebhookRoutes } from './shop/platform-webhooks.ts';
import { shopifyPixelRoute } from './shop/shopify-pixel.ts';
import { adSchedule } from './ads/schedule.ts';
import { collectCheck } from './status.ts';
import { bumpDataVersions } from '../store/app/data-versions.ts';

export async function collectPlugin(app: FastifyInstance): Promise<void> {
  const writer = await openBatchWriter({
    dir: collectDir(app.config.dataDir),
    ch: app.stores.ch,
    logger: app.log as never,
    flushMs: app.config.collect.flushMs,
    maxRows: app.config.collect.maxRows,
    beforeInsert: dropKnownTransactions(app.stores.ch),
    // A version left unraised only delays a cache refresh to the next flush: never hold rows for it.
    afterInsert: (workspaceIds) =>
      bumpDataVersions(app.stores.db, workspaceIds).catch((err: unknown) => app.log.error({ err }, 'could not raise the data version after a collector flush')),
  });
  app.addHook('onClose', () => writer.close());

  // Bodies stay raw text (sendBeacon posts text/plain); the webhooks read theirs as bytes, which their signatures cover.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => done(null, body));

  addHealthCheck(app, {
    name: 'collect',
    async run() {
      const collect = await collectCheck(app.config.dataDir);
      return { state: collect.status === 'ok' ? 'ok' : 'degraded', detail: collect };
    },
  });

  await app.register(collectorRoutes, { writer });
  await app.register(surveyRoutes, { writer });
  await app.register(formRoutes, { writer });
  await app.register(orderWebhookRoute, { writer });
  await app.register(platformWebhookRoutes, { writer });
  await app.register(shopifyPixelRoute);
  await app.register(adSchedule);
}
