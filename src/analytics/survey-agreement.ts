/**
 * Survey against attribution (docs/dashboard.md, "Surveys"; docs/tools.md,
 * surveys.get-attribution-agreement): one question's answers beside the reporting sources the
 * workspace's attribution credits for the same orders, as a matrix of answer x credited source with
 * the orders, their revenue and the share of the answer's matched orders each source got. The
 * dashboard's survey view and the tool read this one computation.
 */
import { InvalidInput } from '../kit/errors.ts';
import { money, ratio } from '../kit/numbers.ts';
import type { Range } from '../kit/calendar/range.ts';
import type { Clickhouse } from '../store/clickhouse.ts';
import type { AppDatabase } from '../store/app-db.ts';
import type { Survey } from '../store/app/surveys.ts';
import type { AttributionPlan } from './attribution/index.ts';
import { answersBySource, type AnswerTotal } from './queries/surveys/answers-by-source.ts';
import { ORDER_LEVEL, pixelChannels, seesOutput, type Visibility } from './permissions.ts';

export interface AgreementCell {
  answer: string;
  /** Reporting source credited (meta, google, organic, ...). */
  source: string;
  /** Orders credited, the model's weights summed (fractions under multi-touch models). */
  orders: number;
  /** Their revenue, decimal, shared by the same weights. */
  revenue: number;
  /** orders / the answer's matched orders: how much of what this answer brought the source is credited with. */
  share: number | null;
}

export interface SurveyAgreement {
  question: number;
  question_text: string;
  rows: AgreementCell[];
  /** Per answer its responses and matched orders; both null for a reader who does not see every channel. */
  answers: (AnswerTotal | { answer: string; responses: null; matched: null })[];
}

/** The question the matrix groups by: the one asked for, else the first choice question. */
function groupedQuestion(survey: Survey, asked: number | undefined): number {
  const questions = survey.data.questions;
  if (asked === undefined) {
    const choice = questions.findIndex((q) => q.type === 'single_choice' || q.type === 'multiple_choice');
    if (choice < 0) throw new InvalidInput(`Survey ${survey.id} has no choice question to compare with the attributed sources`);
    return choice;
  }
  const question = questions[asked];
  if (!question) throw new InvalidInput(`question: survey ${survey.id} has questions 0 to ${questions.length - 1}`);
  if (question.type === 'text') throw new InvalidInput(`question ${asked} is a text question: its answers are not grouped`);
  return asked;
}

export async function surveyAgreement(
  stores: { ch: Clickhouse; db: AppDatabase },
  p: {
    workspaceId: number;
    survey: Survey;
    question: number | undefined;
    range: Range;
    attribution: AttributionPlan;
    /** Who reads: credits to channels it does not see are left out, and a reader who does not see
     * every channel gets no counts of the answers (order-level data of the whole store). */
    visibility: Visibility;
    excludedTransactions: string[];
    /** The counted conversion names (the report's): what a learned model learns buying from. */
    conversionNames: string[];
  },
): Promise<SurveyAgreement> {
  const question = groupedQuestion(p.survey, p.question);
  const { rows, totals } = await answersBySource(stores, {
    workspaceId: p.workspaceId,
    surveyId: p.survey.id,
    question,
    range: p.range,
    attribution: p.attribution,
    channels: pixelChannels(p.visibility, undefined),
    excludedTransactions: p.excludedTransactions,
    conversionNames: p.conversionNames,
  });
  const wholeStore = seesOutput(p.visibility, ORDER_LEVEL);
  const matched = new Map(totals.map((t) => [t.answer, t.matched]));
  return {
    question,
    question_text: p.survey.data.questions[question]!.text,
    rows: rows.map((r) => ({ ...r, revenue: money(r.revenue), share: wholeStore ? ratio(r.orders, matched.get(r.answer) ?? 0) : null })),
    answers: wholeStore ? totals : [...new Set(rows.map((r) => r.answer))].map((answer) => ({ answer, responses: null, matched: null })),
  };
}
