import type { Clickhouse } from '../../../store/clickhouse.ts';
import { timestampParam } from '../../sql.ts';

export const QUERY_NAME = 'list-form-submissions';
export const MAX_EXPORTED_SUBMISSIONS = 100_000;

export interface FormSubmission {
  form_id: string;
  email: string;
  fields: string;
  received_at: string;
}

/** The workspace's form submissions (leads) received from `sinceMs` on, oldest first, at most MAX_EXPORTED_SUBMISSIONS. */
export function listFormSubmissions(ch: Clickhouse, workspaceId: number, sinceMs: number): Promise<FormSubmission[]> {
  const sql = `
SELECT toString(form_id) AS form_id, email, fields, concat(replaceOne(toString(dt), ' ', 'T'), 'Z') AS received_at
FROM form_submissions FINAL
WHERE store_id = {store_id:UInt64} AND dt >= {since:DateTime64(3, 'UTC')}
ORDER BY dt, submission_id
LIMIT ${MAX_EXPORTED_SUBMISSIONS}`;
  return ch.query<FormSubmission>(QUERY_NAME, sql, { store_id: workspaceId, since: timestampParam(sinceMs) });
}
