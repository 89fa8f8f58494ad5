import { z } from 'zod';
import { listObjects } from '../../../store/app/tool-objects.ts';
import { createAudited, listPresented, present, requireObject } from '../kit/objects.ts';
import { idArg, limitArg, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'survey';
const RESPONSE_KIND = 'survey_response';
const QUESTION_TYPES = ['text', 'single_choice', 'multiple_choice', 'rating', 'nps'] as const;

const question = z
  .object({
    text: shortText('The question as shown to the customer', 500),
    type: z.enum(QUESTION_TYPES).describe('Answer kind'),
    options: z.array(z.string().trim().min(1).max(200)).max(20).optional().describe('For single_choice and multiple_choice'),
  })
  .strict();

export const surveyTools = [
  readTool(
    'surveys.get-responses',
    'Get survey responses',
    'The surveys; with survey_id, that survey with its responses (newest last).',
    'Surveys drafted with surveys.create.',
    z
      .object({
        survey_id: idArg('survey').optional(),
        limit: limitArg,
        offset: offsetArg,
      })
      .strict(),
    z.strictObject({ surveys: out.storedList, survey: out.stored, responses: out.storedList }).partial(),
    async (ctx, { survey_id, ...page }) => {
      if (!survey_id) return { surveys: await listPresented(ctx, KIND, page) };
      const survey = await requireObject(ctx, KIND, survey_id, 'Survey');
      const responses = await listObjects(ctx.db, ctx.workspaceId, RESPONSE_KIND, { parentId: survey.id, ...page });
      return { survey: present(survey), responses: responses.map(present) };
    },
  ),
  writeTool(
    'surveys.create',
    'Create a survey draft',
    'Creates a post-purchase survey draft; only a person publishes it, in the dashboard.',
    'Stored in the workspace as a draft.',
    z
      .object({
        title: shortText('Title of the survey'),
        questions: z.array(question).min(1).max(30).describe('Questions in order'),
      })
      .strict(),
    z.strictObject({ survey: out.stored }),
    async (ctx, input) => {
      const survey = await createAudited(ctx, 'surveys.create', KIND, { ...input, status: 'draft' });
      return { survey: { id: String(survey.id), title: input.title, status: 'draft', questions: input.questions } };
    },
  ),
];
