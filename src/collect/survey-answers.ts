/**
 * The body of `POST /collect/survey` and its turn into a `survey_responses` row (docs/collection.md,
 * "Post-purchase surveys"). Each answer is checked against its question: a choice from the
 * question's options, a rating 1-5, an NPS 0-10, text of at most 2,000 characters. The first
 * answer that does not fit refuses the whole response, with a message naming its question.
 */
import { z } from 'zod';
import { InvalidInput } from '../kit/errors.ts';
import { MAX_QUESTIONS, type Survey, type SurveyQuestion } from '../store/app/surveys.ts';
import { formatTimestamp } from './fields.ts';
import { wellFormed } from '../kit/well-formed.ts';

export const MAX_TEXT_ANSWER = 2000;
export const SURVEY_BODY_LIMIT = 64 * 1024;

const answer = z.object({
  question: z.number({ error: 'expected the question index' }).int('expected the question index').min(0, 'expected the question index'),
  value: z.union([z.string().max(MAX_TEXT_ANSWER * 2), z.number(), z.array(z.string().max(200)).max(20)], {
    error: 'expected text, a number or a list of options',
  }),
});

export const surveyResponseBody = z.object({
  pixel_id: z.string({ error: 'is required' }).min(1, 'is required').max(100),
  survey_id: z.string({ error: 'expected the survey id (digits)' }).regex(/^\d{1,15}$/, 'expected the survey id (digits)'),
  transaction_id: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'at most 200 characters'),
  visitor_id: z.string({ error: "expected the pixel's visitor id (digits)" }).regex(/^[1-9]\d{0,18}$/, "expected the pixel's visitor id (digits)").optional(),
  answers: z.array(answer, { error: 'expected an array of answers' }).min(1, 'must not be empty').max(MAX_QUESTIONS, `at most ${MAX_QUESTIONS} answers`),
});

export type SurveyResponseBody = z.infer<typeof surveyResponseBody>;
export type AnswerValue = string | number | string[];
export interface Answer {
  question: number;
  value: AnswerValue;
}

const whole = (value: AnswerValue, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

type Checked = { value: AnswerValue } | { problem: string };

/** The answer in its stored form, or what the question expects. */
function checkValue(question: SurveyQuestion, value: AnswerValue): Checked {
  const options = question.options ?? [];
  switch (question.type) {
    case 'single_choice':
      return typeof value === 'string' && options.includes(value) ? { value } : { problem: 'expected one of its options' };
    case 'multiple_choice': {
      const fits = Array.isArray(value) && value.length > 0 && new Set(value).size === value.length && value.every((v) => options.includes(v));
      return fits ? { value } : { problem: 'expected a list of its options, each at most once' };
    }
    case 'rating':
      return whole(value, 1, 5) ? { value } : { problem: 'expected a whole number from 1 to 5' };
    case 'nps':
      return whole(value, 0, 10) ? { value } : { problem: 'expected a whole number from 0 to 10' };
    case 'text': {
      const text = typeof value === 'string' ? wellFormed(value.trim()) : '';
      return text.length > 0 && text.length <= MAX_TEXT_ANSWER ? { value: text } : { problem: `expected text of 1 to ${MAX_TEXT_ANSWER} characters` };
    }
  }
}

/** The answers in question order, each checked against its question; InvalidInput names the first that does not fit. */
export function checkAnswers(survey: Survey, answers: readonly Answer[]): Answer[] {
  const questions = survey.data.questions;
  const seen = new Set<number>();
  const checked: Answer[] = [];
  for (const { question: index, value } of answers) {
    const question = questions[index];
    if (!question) throw new InvalidInput(`question ${index}: survey ${survey.id} has questions 0 to ${questions.length - 1}`);
    if (seen.has(index)) throw new InvalidInput(`question ${index}: answered more than once`);
    seen.add(index);
    const result = checkValue(question, value);
    if ('problem' in result) throw new InvalidInput(`question ${index} (${question.type}): ${result.problem}`);
    checked.push({ question: index, value: result.value });
  }
  return checked.sort((a, b) => a.question - b.question);
}

export interface SurveyResponseRow {
  store_id: number;
  survey_id: number;
  transaction_id: string;
  visitor_id: string;
  answers: string;
  dt: string;
  version: number;
}

let lastVersion = 0;

/**
 * Microseconds of the time the response was accepted, strictly increasing within the process, so
 * that of two answers for one transaction the later one replaces the earlier.
 */
function nextVersion(now: number): number {
  lastVersion = Math.max(now * 1000, lastVersion + 1);
  return lastVersion;
}

export function surveyResponseRow(
  workspaceId: number,
  body: Pick<SurveyResponseBody, 'survey_id' | 'transaction_id' | 'visitor_id'>,
  answers: Answer[],
  now: number,
): SurveyResponseRow {
  return {
    store_id: workspaceId,
    survey_id: Number(body.survey_id),
    transaction_id: wellFormed(body.transaction_id),
    visitor_id: body.visitor_id ?? '0',
    answers: JSON.stringify(answers),
    dt: formatTimestamp(new Date(now)),
    version: nextVersion(now),
  };
}
