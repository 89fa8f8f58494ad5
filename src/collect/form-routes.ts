/**
 * `POST /collect/form` (docs/collection.md, "Storefront forms"): a storefront form posts a
 * visitor's submission, which is stored as a lead; the pixel loads the script that sends a marked
 * shop form (`GET /pixel-form.js`). Public and keyed by the pixel id like the
 * collector, with its limits; only a live form takes submissions; a 202 goes out only once the
 * submission is in the write-ahead log.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CorsRule } from '../http/cors.ts';
import { preflightRoute } from '../http/cors.ts';
import { InvalidInput, NotFound } from '../kit/errors.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { findWorkspaceByPixelId } from '../store/app/workspaces.ts';
import { findLiveForm } from '../store/app/forms.ts';
import { parseJsonBody } from './collector.ts';
import { createCollectLimits } from './limits.ts';
import { parseAgent } from './visitor.ts';
import { FORM_BODY_LIMIT, checkValues, formSubmissionBody, formSubmissionRow } from './form-submission.ts';
import { scriptRoute } from './pixel/serve.ts';
import type { BatchWriter } from './wal.ts';

const FORM_URL = '/collect/form';
const ANY_PAGE: CorsRule = { origin: '*', methods: 'POST, OPTIONS', allowedHeaders: 'content-type', maxAge: 86_400 };

export const formRoutes: FastifyPluginAsync<{ writer: BatchWriter }> = async (app, { writer }) => {
  const limits = createCollectLimits(app.config.collect);

  scriptRoute(app, '/pixel-form.js', './form-widget.js', ANY_PAGE);

  preflightRoute(app, FORM_URL, ANY_PAGE);

  app.post(FORM_URL, { bodyLimit: FORM_BODY_LIMIT, config: { cors: ANY_PAGE } }, async (request, reply) => {
    const raw = parseJsonBody(request.body);
    const pixelId = (raw as { pixel_id?: unknown } | null)?.pixel_id;
    if (typeof pixelId !== 'string' || pixelId === '') throw new InvalidInput('pixel_id: is required');
    if (pixelId.length > 100) throw new InvalidInput('pixel_id: at most 100 characters');
    await limits.consume(pixelId, request.ip);
    const workspace = await findWorkspaceByPixelId(app.stores.db, pixelId);
    if (!workspace) throw new NotFound('Unknown pixel id');
    const parsed = formSubmissionBody.safeParse(raw);
    if (!parsed.success) throw new InvalidInput(describeIssues(parsed.error));
    const form = await findLiveForm(app.stores.db, workspace.id, Number(parsed.data.form_id));
    if (!form) throw new NotFound(`Form ${parsed.data.form_id} is not live`);
    const values = checkValues(form, parsed.data.values);
    if (parseAgent(request.headers['user-agent'] ?? '').bot) return reply.code(202).send({ accepted: 0 });
    await writer.append({ form_submissions: [formSubmissionRow(workspace.id, form, parsed.data, values, Date.now())] });
    return reply.code(202).send({ accepted: 1 });
  });
};
