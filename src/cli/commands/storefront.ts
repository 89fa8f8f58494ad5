import { STOREFRONT_LIMITS, findStorefront, upsertStorefront, type StorefrontChanges } from '../../store/app/tryon-storefronts.ts';
import { CommandError, workspaceOption, type Command, type CommandArgs } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/** A browser Origin: scheme, host and optional port, nothing else. */
export function parseOrigin(raw: string): string {
  if (raw.length > STOREFRONT_LIMITS.originLength) throw new CommandError(`--origin: an origin is at most ${STOREFRONT_LIMITS.originLength} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CommandError(`--origin must be an origin like https://shop.example, got: ${raw}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new CommandError(`--origin must be an origin like https://shop.example, got: ${raw}`);
  }
  return url.origin;
}

function positiveInt(args: CommandArgs, name: string, max: number, min = 1): number | undefined {
  const raw = args.options[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(value) || value < min || value > max) {
    throw new CommandError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function version(args: CommandArgs, name: string): string | undefined {
  const raw = args.options[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[\w.:-]{1,64}$/.test(raw)) throw new CommandError(`--${name} must be a version label (letters, digits, _ . : -)`);
  return raw;
}

/**
 * `storefront set --workspace ID --origin https://shop.example [--consent-version v]
 * [--marketing-version v] [--session-attempts N] [--daily-attempts N] [--coverage-max-age-days N]
 * [--experiment ID --experiment-variants N | --experiment none]`. `--origin` takes one origin or
 * a comma-separated list; given origins replace the stored list.
 */
export const setStorefrontCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  const changes: StorefrontChanges = {
    consentVersion: version(args, 'consent-version'),
    marketingVersion: version(args, 'marketing-version'),
    sessionAttempts: positiveInt(args, 'session-attempts', STOREFRONT_LIMITS.sessionAttempts),
    dailyAttempts: positiveInt(args, 'daily-attempts', STOREFRONT_LIMITS.dailyAttempts),
    coverageMaxAgeDays: positiveInt(args, 'coverage-max-age-days', STOREFRONT_LIMITS.coverageMaxAgeDays),
  };
  const rawOrigin = args.options.origin;
  if (rawOrigin !== undefined) {
    if (typeof rawOrigin !== 'string' || rawOrigin === '') throw new CommandError('--origin is required');
    const origins = rawOrigin.split(',');
    if (origins.length > STOREFRONT_LIMITS.origins) throw new CommandError(`--origin takes at most ${STOREFRONT_LIMITS.origins} origins`);
    changes.origins = [...new Set(origins.map((o) => parseOrigin(o.trim())))];
  }
  const experiment = args.options.experiment;
  if (experiment === 'none') changes.experiment = null;
  else if (experiment !== undefined) {
    const variants = positiveInt(args, 'experiment-variants', STOREFRONT_LIMITS.experimentVariants, 2);
    if (typeof experiment !== 'string' || !/^[\w.:-]{1,64}$/.test(experiment) || variants === undefined) {
      throw new CommandError(`--experiment ID needs --experiment-variants N (2 to ${STOREFRONT_LIMITS.experimentVariants})`);
    }
    changes.experiment = { id: experiment, variants };
  }
  if (!changes.origins && !(await findStorefront(ctx.stores.db, workspaceId))) throw new CommandError('--origin is required');
  const storefront = await upsertStorefront(ctx.stores.db, workspaceId, changes);
  return {
    workspace_id: storefront.workspaceId,
    origins: storefront.origins,
    consent_version: storefront.consentVersion,
    marketing_version: storefront.marketingVersion,
    session_attempts: storefront.sessionAttempts,
    daily_attempts: storefront.dailyAttempts,
    coverage_max_age_days: storefront.coverageMaxAgeDays,
    experiment: storefront.experiment ? { id: storefront.experiment.id, variants: storefront.experiment.variants } : null,
  };
};
