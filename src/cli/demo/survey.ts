/**
 * The demo store's post-purchase survey: drafted by the assistant (surveys.create), published as a
 * person publishes it (`survey publish`), and answered on the newest orders' confirmation pages,
 * each answer checked and turned into its row by the collector's own code (as POST /collect/survey
 * does). The server is not listening yet, so the rows go straight to the table the collector's
 * log writes.
 */
import type { Stores } from '../../store/index.ts';
import { publishSurvey } from '../../store/app/surveys.ts';
import { listConversions } from '../../analytics/queries/conversions/list-conversions.ts';
import { checkAnswers, surveyResponseBody, surveyResponseRow } from '../../collect/survey-answers.ts';
import { UTC } from '../../kit/calendar/zones.ts';

const DAY_MS = 86_400_000;

/** The answers of the demo's shoppers to the survey's two questions (assistant.ts drafts it), in turn. */
const ANSWERS: [string, number][] = [['Instagram', 9], ['A friend', 10], ['Google', 7], ['A podcast', 8], ['Instagram', 6]];

export async function seedDemoSurveyAnswers(stores: Stores, workspaceId: number, surveyId: number, nowMs: number): Promise<void> {
  const survey = await publishSurvey(stores.db, workspaceId, surveyId, 'demo');
  const scope = { workspaceId, range: { startMs: nowMs - 7 * DAY_MS, endMs: nowMs, timeZone: UTC }, channels: null };
  const orders = await listConversions(stores.ch, scope, { name: 'purchase', page: { limit: ANSWERS.length, offset: 0 }, newestFirst: true });
  const rows = orders.slice(0, ANSWERS.length).map((order, i) => {
    const [heard, score] = ANSWERS[i]!;
    const body = surveyResponseBody.parse({
      pixel_id: 'demo', survey_id: String(survey.id), transaction_id: order.transaction_id,
      answers: [{ question: 0, value: heard }, { question: 1, value: score }],
    });
    return JSON.stringify(surveyResponseRow(workspaceId, body, checkAnswers(survey, body.answers), Date.parse(`${order.dt.replace(' ', 'T')}Z`) + 60_000));
  });
  if (rows.length) await stores.ch.insertNdjson('survey_responses', rows.join('\n'));
}
