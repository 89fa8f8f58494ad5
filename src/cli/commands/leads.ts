import { parseBound } from '../../kit/dates.ts';
import { listLeads } from '../../store/app/tryon-jobs.ts';
import { CommandError, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/**
 * `leads export --workspace ID [--since YYYY-MM-DD]`: the try-on contact requests the workspace
 * still keeps (docs/try-on.md, "Leads"), oldest first, for the shop's own confirmation step.
 */
export const leadsExportCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const rawSince = args.options.since;
  const since = rawSince === undefined ? 0 : typeof rawSince === 'string' ? parseBound(rawSince, 'start') : null;
  if (since === null) throw new CommandError('--since must be a day YYYY-MM-DD or a timestamp');
  await requireWorkspace(ctx, workspaceId);
  const leads = await listLeads(ctx.stores.db, workspaceId, new Date(since));
  return {
    workspace_id: workspaceId,
    leads: leads.map((lead) => ({
      email: lead.email,
      marketing_version: lead.marketing_version,
      status: lead.status,
      received_at: lead.created_at,
      job_id: lead.job_id,
    })),
  };
};
