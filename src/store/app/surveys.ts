/**
 * Post-purchase surveys (docs/collection.md, "Post-purchase surveys"): a tool drafts one
 * (`surveys.create`), a person publishes it (`survey publish`, the dashboard) and closes it. A
 * workspace has at most one live survey, the one its pixel shows; the database holds that rule
 * (the live survey's unique key), so two people publishing at once cannot both succeed.
 * Responses are analytics rows (`survey_responses`), written by the collector.
 */
import { z } from 'zod';
import { Conflict, NotFound } from '../../kit/errors.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { findObject, listObjects, type ToolObject } from './tool-objects.ts';

export const SURVEY_KIND = 'survey';
export const QUESTION_TYPES = ['text', 'single_choice', 'multiple_choice', 'rating', 'nps'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
const CHOICE_TYPES: readonly QuestionType[] = ['single_choice', 'multiple_choice'];
export const MAX_OPTIONS = 20;
export const MAX_QUESTIONS = 30;

/** Choice questions list their options (2 to 20, each once); the other types take none. */
export const surveyQuestion = z
  .object({
    text: z.string().trim().min(1).max(500).describe('Question as the customer sees it'),
    type: z.enum(QUESTION_TYPES).describe('Answer kind: rating 1-5, nps 0-10'),
    options: z.array(z.string().trim().min(1).max(200)).max(MAX_OPTIONS).optional().describe('Choices, for single_choice and multiple_choice'),
  })
  .strict()
  .superRefine((question, ctx) => {
    const choice = CHOICE_TYPES.includes(question.type);
    const options = question.options ?? [];
    if (choice && options.length < 2) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: `a ${question.type} question needs at least 2 options` });
    }
    if (!choice && question.options !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: `a ${question.type} question takes no options` });
    }
    const seen = new Set<string>();
    for (const option of options) {
      if (seen.has(option)) ctx.addIssue({ code: 'custom', path: ['options'], message: `option "${option}" is listed twice` });
      seen.add(option);
    }
  });

export type SurveyQuestion = z.output<typeof surveyQuestion>;
export type SurveyStatus = 'draft' | 'live' | 'closed';

export interface SurveyData {
  title: string;
  questions: SurveyQuestion[];
  status: SurveyStatus;
}

export type Survey = ToolObject<SurveyData>;

/** The survey as the pixel and the tools show it: id as a string, questions in order. */
export function surveyOut(survey: Survey): { id: string; title: string; questions: SurveyQuestion[] } {
  return { id: String(survey.id), title: survey.data.title, questions: survey.data.questions };
}

const LIVE = 'live';

export function findSurvey(db: AppDatabase, workspaceId: number, id: number): Promise<Survey | undefined> {
  return findObject<SurveyData>(db, workspaceId, SURVEY_KIND, id);
}

export async function requireSurvey(db: AppDatabase, workspaceId: number, id: number): Promise<Survey> {
  const survey = await findSurvey(db, workspaceId, id);
  if (!survey) throw new NotFound(`Survey ${id} not found`);
  return survey;
}

/** The survey the pixel shows, if one is live. */
export async function findLiveSurvey(db: AppDatabase, workspaceId: number): Promise<Survey | undefined> {
  const row = await db
    .selectFrom('tool_objects')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', SURVEY_KIND)
    .where('unique_key', '=', LIVE)
    .executeTakeFirst();
  return row && findSurvey(db, workspaceId, Number(row.id));
}

export function listSurveys(db: AppDatabase, workspaceId: number, page: { limit: number; offset: number }): Promise<Survey[]> {
  return listObjects<SurveyData>(db, workspaceId, SURVEY_KIND, page);
}

async function setStatus(db: AppDatabase, workspaceId: number, survey: Survey, status: SurveyStatus): Promise<Survey> {
  const data = { ...survey.data, status };
  const uniqueKey = status === 'live' ? LIVE : null;
  const updatedAt = new Date().toISOString();
  await db
    .updateTable('tool_objects')
    .set({ data: JSON.stringify(data), unique_key: uniqueKey, updated_at: updatedAt })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', survey.id)
    .execute();
  return { ...survey, data, uniqueKey, updatedAt };
}

/** Who changed a survey, for the audit log: `cli` or `dashboard:<email>`. */
export type Actor = string;

/**
 * Makes a draft (or a closed survey) the live one. Publishing the live survey again changes
 * nothing; another live survey is a Conflict naming it.
 */
export async function publishSurvey(db: AppDatabase, workspaceId: number, id: number, actor: Actor): Promise<Survey> {
  const survey = await requireSurvey(db, workspaceId, id);
  if (survey.data.status === 'live') return survey;
  const live = await findLiveSurvey(db, workspaceId);
  if (live) throw liveConflict(live.id);
  let published: Survey;
  try {
    published = await setStatus(db, workspaceId, survey, 'live');
  } catch (error) {
    // Someone else published another survey between the check and the write: the unique key refused ours.
    const other = await findLiveSurvey(db, workspaceId);
    if (other && other.id !== id) throw liveConflict(other.id);
    throw error;
  }
  await recordAudit(db, { workspaceId, actor, action: 'survey.publish', target: `${SURVEY_KIND}:${id}` });
  return published;
}

/** Ends a live survey: the pixel stops showing it and its answers are refused (404). */
export async function closeSurvey(db: AppDatabase, workspaceId: number, id: number, actor: Actor): Promise<Survey> {
  const survey = await requireSurvey(db, workspaceId, id);
  if (survey.data.status !== 'live') throw new Conflict(`Survey ${id} is not live (it is ${survey.data.status})`);
  const closed = await setStatus(db, workspaceId, survey, 'closed');
  await recordAudit(db, { workspaceId, actor, action: 'survey.close', target: `${SURVEY_KIND}:${id}` });
  return closed;
}

const liveConflict = (liveId: number) =>
  new Conflict(`Survey ${liveId} is live; a workspace shows one survey at a time: close it first`);
