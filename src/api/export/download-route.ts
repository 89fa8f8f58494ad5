import type { FastifyPluginAsync } from 'fastify';
import { HttpError, sendError } from '../../http/errors.ts';
import { openDownload } from '../../http/download-links.ts';
import { keyLane, runInLimits } from '../../http/request-chain.ts';
import { visibilityOf } from '../../analytics/permissions.ts';
import { activeKeyIds } from '../../store/app/oauth.ts';
import { InvalidInput } from '../../kit/errors.ts';
import { rejectUnknownParameters } from '../params.ts';
import { isExportKind } from '../../analytics/export/formats.ts';
import { planExport, sendExport } from './plan.ts';

const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * `GET /v3/export/download?token=...` (DOWNLOAD_PATH; registered under the data API's prefix): a signed link (`exports.get-link`) answered without
 * credentials until it expires: the export it names, for the key that asked, with the
 * permissions that key had then. The key's rate limits and bound on requests in flight apply as
 * to its own requests, and a revoked key's links stop at once.
 */
export const downloadRoute: FastifyPluginAsync = async (app) => {
  const path = '/export/download';
  app.get<{ Querystring: Record<string, unknown> }>(path, async (request, reply) => {
    rejectUnknownParameters(request.query, ['token']);
    const token = request.query.token;
    if (typeof token !== 'string' || token === '') throw new InvalidInput('Missing token parameter');
    const grant = openDownload(app.stores.secrets, token, Date.now());
    const { kind } = grant;
    if (!isExportKind(kind) || !(await activeKeyIds(app.stores.db, [grant.keyId])).has(grant.keyId)) {
      throw new HttpError(401, 'Invalid API key');
    }
    const reader = { workspaceId: grant.workspaceId, visibility: visibilityOf(grant.scopes) };
    return runInLimits(app, keyLane(grant.keyId), async () => sendExport(app.stores, planExport(reader, kind, grant.query), request, reply), reply);
  });
  app.route({ method: [...OTHER_METHODS], url: path, handler: async (_request, reply) => sendError(reply, new HttpError(405, 'Method not allowed')) });
};
