import { countWorkspaceRows } from '../../analytics/queries/imports/count-workspace-rows.ts';
import { seedDemo } from '../demo/seed.ts';
import { CommandError, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';
import { bumpDataVersions } from '../../store/app/data-versions.ts';

export const MAX_DEMO_DAYS = 730;

/** `demo --workspace ID [--days 90]`: fills an empty workspace with the demo shop, ending today. */
export const demoCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const rawDays = args.options.days ?? '90';
  const days = Number(rawDays);
  if (typeof rawDays !== 'string' || !/^\d+$/.test(rawDays) || days < 1 || days > MAX_DEMO_DAYS) {
    throw new CommandError(`--days must be an integer from 1 to ${MAX_DEMO_DAYS}`);
  }
  const workspace = await requireWorkspace(ctx, workspaceId);
  if ((await countWorkspaceRows(ctx.stores.ch, workspaceId)) > 0) {
    throw new CommandError(`Workspace ${workspaceId} already has data; the demo fills only an empty workspace`);
  }
  try {
    return await seedDemo(ctx.stores.ch, { workspaceId, days, currency: workspace.currency, progress: ctx.progress });
  } finally {
    await bumpDataVersions(ctx.stores.db, [workspaceId]);
  }
};
