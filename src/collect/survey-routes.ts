/**
 * `GET /collect/survey` and `POST /collect/survey` (docs/collection.md, "Post-purchase surveys"):
 * the pixel asks for the workspace's live survey on the order confirmation page, loads the widget
 * (`GET /pixel-survey.js`) when there is one, and posts the customer's answers. Public and keyed by the pixel id like the collector, with its limits; a
 * 202 goes out only once the answer is in the write-ahead log.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { CorsRule } from '../http/cors.ts';
import { preflightRoute } from '../http/cors.ts';
import { InvalidInput, NotFound } from '../kit/errors.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { findWorkspaceByPixelId } from '../store/app/workspaces.ts';
import { findLiveSurvey, surveyOut } from '../store/app/surveys.ts';
import { parseJsonBody } from './collector.ts';
import { createCollectLimits } from './limits.ts';
import { parseAgent } from './visitor.ts';
import { scriptRoute } from './pixel/serve.ts';
import { SURVEY_BODY_LIMIT, checkAnswers, surveyResponseBody, surveyResponseRow } from './survey-answers.ts';
import type { BatchWriter } from './wal.ts';

const SURVEY_URL = '/collect/survey';
const ANY_PAGE: CorsRule = { origin: '*', methods: 'GET, POST, OPTIONS', allowedHeaders: 'content-type', maxAge: 86_400 };

function pixelIdOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new InvalidInput('pixel_id: is required');
  if (value.length > 100) throw new InvalidInput('pixel_id: at most 100 characters');
  return value;
}

export const surveyRoutes: FastifyPluginAsync<{ writer: BatchWriter }> = async (app, { writer }) => {
  const limits = createCollectLimits(app.config.collect);

  async function workspaceOf(request: FastifyRequest, pixelId: string): Promise<number> {
    await limits.consume(pixelId, request.ip);
    const workspace = await findWorkspaceByPixelId(app.stores.db, pixelId);
    if (!workspace) throw new NotFound('Unknown pixel id');
    return workspace.id;
  }

  scriptRoute(app, '/pixel-survey.js', './survey-widget.js', ANY_PAGE);

  preflightRoute(app, SURVEY_URL, ANY_PAGE);

  app.get<{ Querystring: Record<string, unknown> }>(SURVEY_URL, { config: { cors: ANY_PAGE } }, async (request, reply) => {
    const workspaceId = await workspaceOf(request, pixelIdOf(request.query.pixel_id));
    const survey = await findLiveSurvey(app.stores.db, workspaceId);
    reply.header('cache-control', 'no-store');
    if (!survey) return reply.code(204).send();
    return { survey: surveyOut(survey) };
  });

  app.post(SURVEY_URL, { bodyLimit: SURVEY_BODY_LIMIT, config: { cors: ANY_PAGE } }, async (request, reply) => {
    const raw = parseJsonBody(request.body);
    const workspaceId = await workspaceOf(request, pixelIdOf((raw as { pixel_id?: unknown } | null)?.pixel_id));
    const parsed = surveyResponseBody.safeParse(raw);
    if (!parsed.success) throw new InvalidInput(describeIssues(parsed.error));
    const survey = await findLiveSurvey(app.stores.db, workspaceId);
    if (!survey || String(survey.id) !== parsed.data.survey_id) throw new NotFound(`Survey ${parsed.data.survey_id} is not live`);
    const answers = checkAnswers(survey, parsed.data.answers);
    if (parseAgent(request.headers['user-agent'] ?? '').bot) return reply.code(202).send({ accepted: 0 });
    await writer.append({ survey_responses: [surveyResponseRow(workspaceId, parsed.data, answers, Date.now())] });
    return reply.code(202).send({ accepted: 1 });
  });
};
