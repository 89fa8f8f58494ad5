import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'count-survey-responses';

/** Responses per survey of the workspace (one per transaction); surveys without any are absent. */
export async function countSurveyResponses(ch: Clickhouse, workspaceId: number): Promise<Map<number, number>> {
  const sql = `
SELECT survey_id, count() AS responses
FROM survey_responses FINAL
WHERE store_id = {store_id:UInt64}
GROUP BY survey_id
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const rows = await ch.query<{ survey_id: number; responses: number }>(QUERY_NAME, sql, { store_id: workspaceId });
  return new Map(rows.map((row) => [Number(row.survey_id), Number(row.responses)]));
}
