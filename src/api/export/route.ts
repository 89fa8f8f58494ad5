import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { ROW_EXPORTS, type RowExportKind } from './kinds.ts';
import { sendRowExport } from './send.ts';

/** `GET /v3/export/<kind>`: every row the row endpoint would page through, as one download. */
export const rowExportRoute =
  (kind: RowExportKind): FastifyPluginAsync =>
  async (app) => {
    const rows = ROW_EXPORTS.get(kind)!;
    dataRoute(app, `/export/${kind}`, async (request, reply) => {
      const plan = rows.plan(request.auth!, request.query);
      await sendRowExport(app.stores.ch, plan, request, reply);
    });
  };
