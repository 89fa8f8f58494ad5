import { z } from 'zod';
import { MAX_QUESTIONS, SURVEY_KIND, listSurveys, surveyQuestion, type SurveyData } from '../../../store/app/surveys.ts';
import { countSurveyResponses } from '../../../analytics/queries/surveys/count-responses.ts';
import { listSurveyResponses } from '../../../analytics/queries/surveys/list-responses.ts';
import { surveyAgreement } from '../../../analytics/survey-agreement.ts';
import { planAttribution } from '../../../analytics/attribution/index.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { getSettings } from '../../../store/app/workspaces.ts';
import { createAudited, present, requireObject } from '../kit/objects.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { idArg, limitArg, offsetArg, rangeArgs, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';
import { ORDER_LEVEL, requireOutput, seesOutput } from '../../../analytics/permissions.ts';
import { countedNames } from '../../../analytics/conversion-names.ts';

export const surveyTools = [
  readTool(
    'surveys.get-responses',
    'Get survey responses',
    'Surveys (draft, live or closed; response count); with survey_id, its responses, one per order, oldest first.',
    "Surveys drafted with surveys.create and published by a person (`survey publish`, the dashboard); responses posted by the pixel's post-purchase widget to `POST /collect/survey`; " +
      'responses and their counts are order-level, read by admin keys only (docs/mcp.md, "Who may do what").',
    z
      .object({
        survey_id: idArg('survey').optional(),
        limit: limitArg,
        offset: offsetArg,
      })
      .strict(),
    z.strictObject({
      surveys: out.storedList,
      survey: out.stored,
      responses: out.list({ transaction_id: out.str, answers: z.array(out.open), created_at: out.str }),
    }).partial(),
    async (ctx, { survey_id, ...page }) => {
      if (!survey_id) {
        const counted = seesOutput(ctx.visibility, ORDER_LEVEL);
        const [surveys, counts] = await Promise.all([listSurveys(ctx.db, ctx.workspaceId, page), counted ? countSurveyResponses(ctx.ch, ctx.workspaceId) : null]);
        return { surveys: surveys.map((s) => ({ ...present(s), responses: counts ? (counts.get(s.id) ?? 0) : null })) };
      }
      const survey = await requireObject<SurveyData>(ctx, SURVEY_KIND, survey_id, 'Survey');
      requireOutput(ctx.visibility, ORDER_LEVEL, 'survey responses');
      const responses = await listSurveyResponses(ctx.ch, { workspaceId: ctx.workspaceId, surveyId: survey.id, page });
      return { survey: present(survey), responses };
    },
  ),
  readTool(
    'surveys.get-attribution-agreement',
    'Survey answers vs attribution',
    'Survey answers vs the sources credited for their orders: orders, revenue, share.',
    'Survey responses matched by transaction id to conversions of the range, credited by the report core.',
    z
      .object({
        survey_id: idArg('survey'),
        question: z.number().int().min(0).max(MAX_QUESTIONS - 1).optional().describe('Index'),
        ...rangeArgs,
      })
      .strict(),
    z.strictObject({
      agreement: out.fields({
        ...out.range, attribution: out.open, question: out.num, question_text: out.str,
        rows: out.list({ answer: out.str, source: out.str, orders: out.num, revenue: out.num, share: out.numOrNull }),
        answers: out.list({ answer: out.str, responses: out.numOrNull, matched: out.numOrNull }),
      }),
    }),
    async (ctx, input) => {
      const survey = await requireObject<SurveyData>(ctx, SURVEY_KIND, input.survey_id, 'Survey');
      const { range } = pixelScope(ctx, toolRange(ctx, input));
      const settings = await getSettings(ctx.db, ctx.workspaceId);
      const attribution = planAttribution({}, settings, ctx.visibility);
      const agreement = await surveyAgreement(ctx, {
        workspaceId: ctx.workspaceId,
        survey,
        question: input.question,
        range,
        attribution,
        visibility: ctx.visibility,
        excludedTransactions: settings.excluded_transaction_ids,
        conversionNames: countedNames(settings),
      });
      return {
        agreement: {
          ...rangeOut(range),
          attribution: { model: attribution.model, window: attribution.windowDays, date_mode: attribution.dateMode, ignore_sources: attribution.excludedSources },
          ...agreement,
        },
      };
    },
  ),
  writeTool(
    'surveys.create',
    'Create a survey draft',
    'Creates a post-purchase survey draft; only a person publishes it (CLI or dashboard).',
    'Stored in the workspace as a draft.',
    z
      .object({
        title: shortText('Title of the survey'),
        questions: z.array(surveyQuestion).min(1).max(MAX_QUESTIONS).describe('Questions in order'),
      })
      .strict(),
    z.strictObject({ survey: out.stored }),
    async (ctx, input) => {
      const survey = await createAudited<SurveyData>(ctx, 'surveys.create', SURVEY_KIND, { ...input, status: 'draft' });
      return { survey: { id: String(survey.id), title: input.title, status: 'draft', questions: input.questions } };
    },
  ),
];
