import { ensureWebhookSecret, rotateWebhookSecret } from '../../store/app/webhooks.ts';
import { serviceUrl, workspaceOption, type Command, type CommandContext } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

const webhookUrl = (ctx: CommandContext, workspaceId: number) => serviceUrl(ctx, `/webhooks/orders?workspace=${workspaceId}`);

/** `webhook secret --workspace N`: the order-webhook URL and secret (created on first use). */
export const webhookSecretCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  const secret = await ensureWebhookSecret(ctx.stores.db, ctx.stores.secrets, workspaceId);
  return { workspace_id: workspaceId, url: webhookUrl(ctx, workspaceId), secret };
};

/** `webhook rotate --workspace N`: a new secret; deliveries signed with the old one are refused. */
export const webhookRotateCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  const secret = await rotateWebhookSecret(ctx.stores.db, ctx.stores.secrets, workspaceId);
  return { workspace_id: workspaceId, url: webhookUrl(ctx, workspaceId), secret };
};
