import { AdSyncError } from '../../collect/ads/api/call.ts';
import { googleCustomerId } from '../../collect/ads/api/google.ts';
import { metaAccountPath } from '../../collect/ads/api/meta.ts';
import { MAX_SYNC_DAYS, RESYNC_DAYS, syncWorkspace } from '../../collect/ads/sync.ts';
import { listAdConnections, saveAdConnection } from '../../store/app/ad-connections.ts';
import { CommandError, ExitWith, requireOption, workspaceOption, type Command, type CommandArgs } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

function credentialsOf(platform: string, args: CommandArgs): { accountId: string; credentials: Record<string, string> } {
  if (platform === 'meta') {
    const accountId = metaAccountPath(requireOption(args, 'account'));
    if (!accountId) throw new CommandError('--account must be a Meta ad account id (act_<digits> or digits)');
    return { accountId, credentials: { access_token: requireOption(args, 'access-token') } };
  }
  if (platform === 'google') {
    const accountId = googleCustomerId(requireOption(args, 'customer-id'));
    if (!accountId) throw new CommandError('--customer-id must be a Google Ads customer id (123-456-7890)');
    const login = args.options['login-customer-id'];
    const loginId = typeof login === 'string' && login !== '' ? googleCustomerId(login) : '';
    if (loginId === null) throw new CommandError('--login-customer-id must be a Google Ads manager account id (123-456-7890)');
    return {
      accountId,
      credentials: {
        developer_token: requireOption(args, 'developer-token'),
        client_id: requireOption(args, 'client-id'),
        client_secret: requireOption(args, 'client-secret'),
        refresh_token: requireOption(args, 'refresh-token'),
        login_customer_id: loginId,
      },
    };
  }
  throw new CommandError('--platform must be meta or google');
}

/**
 * `ads connect --workspace ID --platform meta --account act_1 --access-token T`, or
 * `--platform google --customer-id C --developer-token D --client-id I --client-secret S --refresh-token R [--login-customer-id M]`:
 * stores the credentials sealed; connecting the same account again replaces them.
 */
export const adsConnectCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const platform = requireOption(args, 'platform');
  const { accountId, credentials } = credentialsOf(platform, args);
  await requireWorkspace(ctx, workspaceId);
  await saveAdConnection(ctx.stores.db, ctx.stores.secrets, { workspaceId, platform, accountId, credentials });
  const accounts = await listAdConnections(ctx.stores.db, ctx.stores.secrets, workspaceId);
  return {
    workspace_id: workspaceId,
    platform,
    account_id: accountId,
    connected_accounts: accounts.map((a) => ({ platform: a.platform, account_id: a.accountId })),
  };
};

/** `ads status --workspace ID`: the connected accounts and how their last pull went (never the credentials). */
export const adsStatusCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  const accounts = await listAdConnections(ctx.stores.db, ctx.stores.secrets, workspaceId);
  return {
    workspace_id: workspaceId,
    accounts: accounts.map((a) => ({
      platform: a.platform,
      account_id: a.accountId,
      connected_at: a.createdAt,
      last_sync_at: a.lastSyncAt,
      last_sync_error: a.lastSyncError,
    })),
  };
};

/**
 * `ads sync --workspace ID [--days 28]`: pulls every connected account now. Exit code 0 when all
 * worked, 2 when an account failed or rows were rejected, 1 when nothing could be pulled.
 */
export const adsSyncCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const rawDays = args.options.days ?? String(RESYNC_DAYS);
  const days = Number(rawDays);
  if (typeof rawDays !== 'string' || !/^\d+$/.test(rawDays) || days < 1 || days > MAX_SYNC_DAYS) {
    throw new CommandError(`--days must be an integer from 1 to ${MAX_SYNC_DAYS}`);
  }
  await requireWorkspace(ctx, workspaceId);
  let result;
  try {
    result = await syncWorkspace({ config: ctx.config.ads, stores: ctx.stores, progress: ctx.progress }, workspaceId, days);
  } catch (error) {
    if (error instanceof AdSyncError) throw new CommandError(error.message);
    throw error;
  }
  if (result.accounts.length === 0) throw new CommandError(`Workspace ${workspaceId} has no connected ad accounts; add one with ads connect`);
  const failed = result.accounts.filter((a) => a.error);
  if (failed.length === result.accounts.length) throw new CommandError(failed.map((a) => a.error).join('; '));
  return failed.length > 0 || result.accounts.some((a) => a.rows_rejected > 0) ? new ExitWith(result, 2) : result;
};
