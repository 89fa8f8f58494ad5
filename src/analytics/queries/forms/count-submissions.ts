import type { Clickhouse } from '../../../store/clickhouse.ts';

export const QUERY_NAME = 'count-form-submissions';

/** Submissions (leads) per form of the workspace; forms without any are absent. */
export async function countFormSubmissions(ch: Clickhouse, workspaceId: number): Promise<Map<number, number>> {
  const sql = `
SELECT form_id, count() AS submissions
FROM form_submissions FINAL
WHERE store_id = {store_id:UInt64}
GROUP BY form_id
SETTINGS output_format_json_quote_64bit_integers = 0`;
  const rows = await ch.query<{ form_id: number; submissions: number }>(QUERY_NAME, sql, { store_id: workspaceId });
  return new Map(rows.map((row) => [Number(row.form_id), Number(row.submissions)]));
}
