import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Page } from '../../../kit/paging.ts';

export const QUERY_NAME = 'newest-form-submissions';

export interface FormLead {
  email: string;
  /** `[{field, label, value}]` as the collector checked them. */
  fields: { field: number; label: string; value: string | number | boolean }[];
  /** When the collector accepted it, ISO 8601 UTC. */
  received_at: string;
}

/** One form's submissions (leads), newest first. */
export async function newestFormSubmissions(ch: Clickhouse, p: { workspaceId: number; formId: number; page: Page }): Promise<FormLead[]> {
  const sql = `
SELECT email, fields, concat(replaceOne(toString(dt), ' ', 'T'), 'Z') AS received_at
FROM form_submissions FINAL
WHERE store_id = {store_id:UInt64} AND form_id = {form_id:UInt64}
ORDER BY dt DESC, submission_id
LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
  const rows = await ch.query<{ email: string; fields: string; received_at: string }>(QUERY_NAME, sql, {
    store_id: p.workspaceId,
    form_id: p.formId,
    limit: p.page.limit,
    offset: p.page.offset,
  });
  return rows.map((row) => ({ ...row, fields: JSON.parse(row.fields) }));
}
