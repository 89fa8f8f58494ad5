import { parseBound } from '../../kit/calendar/days.ts';
import { listLeads } from '../../store/app/tryon-jobs.ts';
import { listFormSubmissions } from '../../analytics/queries/forms/list-submissions.ts';
import { CommandError, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/**
 * `leads export --workspace ID [--since YYYY-MM-DD]`: the try-on contact requests the workspace
 * still keeps (docs/try-on.md, "Leads"), oldest first, for the shop's own confirmation step, and
 * the submissions of its storefront forms (docs/collection.md, section 8), oldest first.
 */
export const leadsExportCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const rawSince = args.options.since;
  const since = rawSince === undefined ? 0 : typeof rawSince === 'string' ? parseBound(rawSince, 'start') : null;
  if (since === null) throw new CommandError('--since must be a day YYYY-MM-DD or a timestamp');
  await requireWorkspace(ctx, workspaceId);
  const leads = await listLeads(ctx.stores.db, workspaceId, new Date(since));
  const submissions = await listFormSubmissions(ctx.stores.ch, workspaceId, since);
  return {
    workspace_id: workspaceId,
    leads: leads.map((lead) => ({
      email: lead.email,
      marketing_version: lead.marketing_version,
      status: lead.status,
      received_at: lead.created_at,
      job_id: lead.job_id,
    })),
    form_leads: submissions.map((s) => ({
      form_id: s.form_id,
      email: s.email,
      fields: (JSON.parse(s.fields) as { label: string; value: unknown }[]).map(({ label, value }) => ({ label, value })),
      received_at: s.received_at,
    })),
  };
};
