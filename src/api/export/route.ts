import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import type { ExportKind } from '../../analytics/export/formats.ts';
import { planExport, sendExport } from './plan.ts';

/**
 * `GET /v3/export/<kind>`: every row the row endpoint would page through as one download, or
 * (`mmm`) the marketing-mix-model CSV (docs/exports.md).
 */
export const exportRoute =
  (kind: ExportKind): FastifyPluginAsync =>
  async (app) => {
    dataRoute(app, `/export/${kind}`, async (request, reply) => {
      const plan = planExport(request.auth!, kind, request.query);
      return sendExport(app.stores, plan, request, reply);
    });
  };
