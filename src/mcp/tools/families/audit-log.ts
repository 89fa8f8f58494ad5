import { z } from 'zod';
import { listAudit } from '../../../store/app/audit-log.ts';
import { requireAuditAccess } from '../kit/scope.ts';
import { limitArg, offsetArg, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const auditLogTools = [
  readTool(
    'audit-log.get-log',
    'Audit log',
    'Workspace changes, newest first: who (key or OAuth client), which tool or command, object, change. ' +
      'Needs admin:admin.',
    'Every write through the tools, and the OAuth consents.',
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ entries: out.list({ id: out.str, actor: out.str, action: out.str, target: out.str, details: out.open, created_at: out.str }) }),
    async (ctx, page) => {
      requireAuditAccess(ctx);
      const entries = await listAudit(ctx.db, ctx.workspaceId, page);
      return { entries: entries.map((e) => ({ id: String(e.id), actor: e.actor, action: e.action, target: e.target, details: e.details, created_at: e.created_at })) };
    },
  ),
];
