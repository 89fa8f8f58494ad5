/**
 * The surveys view's endpoints (docs/dashboard.md, "Surveys"): every member reads the surveys and
 * the matrix of one question's answers (analytics/survey-agreement.ts) beside the sources the attribution credits for the same
 * orders, the credits only to channels it sees; the responses and their counts are order-level
 * data, read only by members who see every channel (analytics/permissions.ts, seesOutput); owners
 * publish and close.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { InvalidInput } from '../kit/errors.ts';
import { planAttribution } from '../analytics/attribution/index.ts';
import { ORDER_LEVEL, requireOutput, seesOutput } from '../analytics/permissions.ts';
import { surveyAgreement } from '../analytics/survey-agreement.ts';
import { countSurveyResponses } from '../analytics/queries/surveys/count-responses.ts';
import { listSurveyResponses } from '../analytics/queries/surveys/list-responses.ts';
import { getSettings } from '../store/app/workspaces.ts';
import { closeSurvey, listSurveys, publishSurvey, requireSurvey, surveyOut, type Survey } from '../store/app/surveys.ts';
import { parseReportQuery } from '../api/report/schema.ts';
import { limitParam, offsetParam, pageOf, parseWith } from '../api/params.ts';
import { slicePage } from '../kit/paging.ts';
import { pathId, type IdRequest } from './path-id.ts';
import { viewRange } from './store-calendar.ts';
import { requireOwner, workspaceAccess } from './access.ts';
import { countedNames } from '../analytics/conversion-names.ts';

const idOf = (request: IdRequest) => pathId(request, 'Survey');

const shown = (survey: Survey) => ({ ...surveyOut(survey), status: survey.data.status, created_at: survey.createdAt, updated_at: survey.updatedAt });

const responsesQuery = { schema: z.object({ limit: limitParam, offset: offsetParam }) };

const questionParam = z
  .string({ error: 'question must be a question index' })
  .regex(/^\d{1,2}$/, { error: 'question must be a question index' })
  .transform(Number)
  .optional();

export async function surveyRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/surveys', async (request) => {
    const { workspaceId, visibility } = workspaceAccess(request);
    const [surveys, counts] = await Promise.all([
      listSurveys(app.stores.db, workspaceId, { limit: 500, offset: 0 }),
      seesOutput(visibility, ORDER_LEVEL) ? countSurveyResponses(app.stores.ch, workspaceId) : null,
    ]);
    return { surveys: surveys.map((s) => ({ ...shown(s), responses: counts ? (counts.get(s.id) ?? 0) : null })) };
  });

  app.get<{ Params: { id: string } }>('/dashboard/api/surveys/:id/responses', async (request) => {
    const { workspaceId, visibility } = workspaceAccess(request);
    const page = pageOf(parseWith(responsesQuery, request.query, ['workspace']));
    const survey = await requireSurvey(app.stores.db, workspaceId, idOf(request));
    requireOutput(visibility, ORDER_LEVEL, 'survey responses');
    const responses = await listSurveyResponses(app.stores.ch, { workspaceId, surveyId: survey.id, page: { ...page, limit: page.limit + 1 } });
    const { data, pagination } = slicePage(responses, page);
    return { survey: shown(survey), responses: data, has_more: pagination.has_more, offset: page.offset, limit: page.limit };
  });

  /** One question's answers beside the attributed sources of the same orders: the report's model, window and exclusions. */
  app.get<{ Params: { id: string } }>('/dashboard/api/surveys/:id/sources', async (request) => {
    const access = workspaceAccess(request);
    const query = parseReportQuery(request.query, ['workspace', 'question']);
    const asked = questionParam.safeParse((request.query as Record<string, unknown>).question);
    if (!asked.success) throw new InvalidInput('question must be a question index');
    const survey = await requireSurvey(app.stores.db, access.workspaceId, idOf(request));
    const settings = await getSettings(app.stores.db, access.workspaceId);
    const attribution = planAttribution(query, settings, access.visibility);
    const range = viewRange(query, access.timeZone, Date.now());
    const agreement = await surveyAgreement(app.stores, {
      workspaceId: access.workspaceId,
      survey,
      question: asked.data,
      range,
      attribution,
      visibility: access.visibility,
      excludedTransactions: settings.excluded_transaction_ids,
      conversionNames: countedNames(settings),
    });
    return {
      ...agreement,
      attribution_model: attribution.model,
      attribution_window: attribution.windowDays,
      exclude_source: attribution.excludedSources,
      start_date: new Date(range.startMs).toISOString(),
      end_date: new Date(range.endMs).toISOString(),
    };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/surveys/:id/publish', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    return { survey: shown(await publishSurvey(app.stores.db, access.workspaceId, idOf(request), `dashboard:${request.dashboardUser!.email}`)) };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/surveys/:id/close', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    return { survey: shown(await closeSurvey(app.stores.db, access.workspaceId, idOf(request), `dashboard:${request.dashboardUser!.email}`)) };
  });
}
