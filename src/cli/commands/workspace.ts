import { createWorkspace, findWorkspace } from '../../store/app/workspaces.ts';
import { changeSettings } from '../../analytics/workspace-settings.ts';
import { createApiKey, revokeApiKey } from '../../store/app/api-keys.ts';
import { isValidScope } from '../../analytics/permissions.ts';
import { KEY_SCOPES } from '../../kit/vocabulary.ts';
import { parseSettingValue } from '../../store/app/settings.ts';
import { canonicalTimeZone, timeZoneMessage } from '../../kit/calendar/zones.ts';
import { CommandError, requireOption, workspaceOption, type Command, type CommandContext } from '../command.ts';

const MAX_WORKSPACE_NAME_LENGTH = 200;

export async function requireWorkspace(ctx: CommandContext, id: number) {
  const workspace = await findWorkspace(ctx.stores.db, id);
  if (!workspace) throw new CommandError(`Workspace ${id} not found`);
  return workspace;
}

export const createWorkspaceCommand: Command = async (ctx, args) => {
  const name = requireOption(args, 'name', MAX_WORKSPACE_NAME_LENGTH).trim();
  if (!name) throw new CommandError('--name is required');
  const currency = String(args.options.currency ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new CommandError('--currency must be a three-letter code');
  const given = String(args.options.timezone ?? 'UTC');
  const timezone = canonicalTimeZone(given);
  if (timezone === null) throw new CommandError(timeZoneMessage(given));
  const workspace = await createWorkspace(ctx.stores.db, { name, currency, timezone });
  const key = await createApiKey(ctx.stores.db, workspace.id, ['admin:admin']);
  return { workspace_id: workspace.id, ...key, pixel_id: workspace.pixelId };
};

export const createKeyCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  const scopes = [...new Set(requireOption(args, 'scopes').split(',').map((s) => s.trim()).filter(Boolean))];
  if (scopes.length === 0) throw new CommandError('--scopes names no scope');
  const unknown = scopes.filter((s) => !isValidScope(s));
  if (unknown.length) throw new CommandError(`Unknown scopes: ${unknown.join(', ')}. Known scopes: ${KEY_SCOPES.join(', ')}`);
  return createApiKey(ctx.stores.db, workspaceId, scopes);
};

export const revokeKeyCommand: Command = async (ctx, args) => {
  const revoked = await revokeApiKey(ctx.stores.db, requireOption(args, 'api-key'));
  if (!revoked) throw new CommandError('No active key matches --api-key');
  return { revoked: true };
};

export const setSettingsCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  const changes: Record<string, unknown> = {};
  for (const pair of args.positionals) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CommandError(`Expected key=value, got: ${pair}`);
    const key = pair.slice(0, eq);
    try {
      changes[key] = parseSettingValue(key, pair.slice(eq + 1));
    } catch (error) {
      throw new CommandError((error as Error).message);
    }
  }
  return changeSettings(ctx.stores, workspaceId, changes);
};
