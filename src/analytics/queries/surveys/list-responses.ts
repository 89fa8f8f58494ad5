import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Page } from '../../../kit/paging.ts';

export const QUERY_NAME = 'list-survey-responses';

export interface SurveyResponse {
  transaction_id: string;
  /** `[{question, value}]` as the collector checked it. */
  answers: { question: number; value: string | number | string[] }[];
  /** When the answer (the newest, for a transaction answered again) was accepted, ISO 8601 UTC. */
  created_at: string;
}

/** One survey's responses, one per transaction (the newest answer), oldest first. */
export async function listSurveyResponses(ch: Clickhouse, p: { workspaceId: number; surveyId: number; page: Page }): Promise<SurveyResponse[]> {
  const sql = `
SELECT transaction_id, answers, toString(dt) AS created_at
FROM survey_responses FINAL
WHERE store_id = {store_id:UInt64} AND survey_id = {survey_id:UInt64}
ORDER BY dt, transaction_id
LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
  const rows = await ch.query<{ transaction_id: string; answers: string; created_at: string }>(QUERY_NAME, sql, {
    store_id: p.workspaceId,
    survey_id: p.surveyId,
    limit: p.page.limit,
    offset: p.page.offset,
  });
  return rows.map((row) => ({
    transaction_id: row.transaction_id,
    answers: JSON.parse(row.answers),
    created_at: new Date(`${row.created_at.replace(' ', 'T')}Z`).toISOString(),
  }));
}
