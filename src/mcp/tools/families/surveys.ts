import { z } from 'zod';
import { MAX_QUESTIONS, SURVEY_KIND, listSurveys, surveyQuestion, type SurveyData } from '../../../store/app/surveys.ts';
import { countSurveyResponses } from '../../../analytics/queries/surveys/count-responses.ts';
import { listSurveyResponses } from '../../../analytics/queries/surveys/list-responses.ts';
import { createAudited, present, requireObject } from '../kit/objects.ts';
import { idArg, limitArg, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const surveyTools = [
  readTool(
    'surveys.get-responses',
    'Get survey responses',
    'Surveys (draft, live or closed; response count); with survey_id, its responses, one per order, oldest first.',
    "Surveys drafted with surveys.create and published by a person (`survey publish`, the dashboard); responses posted by the pixel's post-purchase widget to `POST /collect/survey`.",
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
        const [surveys, counts] = await Promise.all([listSurveys(ctx.db, ctx.workspaceId, page), countSurveyResponses(ctx.ch, ctx.workspaceId)]);
        return { surveys: surveys.map((s) => ({ ...present(s), responses: counts.get(s.id) ?? 0 })) };
      }
      const survey = await requireObject<SurveyData>(ctx, SURVEY_KIND, survey_id, 'Survey');
      const responses = await listSurveyResponses(ctx.ch, { workspaceId: ctx.workspaceId, surveyId: survey.id, page });
      return { survey: present(survey), responses };
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
