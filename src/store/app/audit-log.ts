import type { AppDatabase } from '../app-db.ts';

export interface AuditEntry {
  id: number;
  workspace_id: number;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  created_at: string;
}

export async function recordAudit(
  db: AppDatabase,
  entry: { workspaceId: number; actor: string; action: string; target: string; details?: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      workspace_id: entry.workspaceId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      details: JSON.stringify(entry.details ?? {}),
      created_at: new Date().toISOString(),
    })
    .execute();
}

export async function listAudit(
  db: AppDatabase,
  workspaceId: number,
  page: { limit: number; offset: number },
): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), workspace_id: Number(r.workspace_id), details: JSON.parse(r.details) }));
}
