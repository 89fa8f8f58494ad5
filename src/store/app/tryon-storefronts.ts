import type { Selectable } from 'kysely';
import type { AppDatabase } from '../app-db.ts';
import type { TryOnStorefrontTable } from './tryon-schema.ts';

/** Try-on settings of one workspace's storefront (docs/try-on.md, "Setting up a storefront"). */
export interface Storefront {
  workspaceId: number;
  origins: string[];
  consentVersion: string;
  marketingVersion: string;
  /** Generation attempts allowed per try-on session. */
  sessionAttempts: number;
  /** Generation attempts allowed per workspace and UTC day. */
  dailyAttempts: number;
  /** A catalog row imported longer ago than this is stale coverage (409 coverage_stale). */
  coverageMaxAgeDays: number;
  /** null when no experiment is configured. */
  experiment: { id: string; variants: number } | null;
  updatedAt: string;
}

export const STOREFRONT_DEFAULTS = {
  consentVersion: 'v1',
  marketingVersion: 'v1',
  sessionAttempts: 10,
  dailyAttempts: 500,
  coverageMaxAgeDays: 30,
} as const;

/** What a storefront may store, from the CLI (`storefront set`) and the dashboard alike. */
export const STOREFRONT_LIMITS = {
  origins: 20,
  originLength: 200,
  sessionAttempts: 1000,
  dailyAttempts: 1_000_000,
  coverageMaxAgeDays: 3650,
  experimentVariants: 10,
} as const;

export type StorefrontChanges = Partial<Omit<Storefront, 'workspaceId' | 'updatedAt'>>;

type Row = Omit<Selectable<TryOnStorefrontTable>, 'id'>;

function toStorefront(row: Row): Storefront {
  return {
    workspaceId: Number(row.workspace_id),
    origins: JSON.parse(row.origins) as string[],
    consentVersion: row.consent_version,
    marketingVersion: row.marketing_version,
    sessionAttempts: Number(row.session_attempts),
    dailyAttempts: Number(row.daily_attempts),
    coverageMaxAgeDays: Number(row.coverage_max_age_days),
    experiment: row.experiment_id ? { id: row.experiment_id, variants: Number(row.experiment_variants) } : null,
    updatedAt: row.updated_at,
  };
}

function toRow(s: Omit<Storefront, 'updatedAt'>): Row {
  return {
    workspace_id: s.workspaceId,
    origins: JSON.stringify(s.origins),
    consent_version: s.consentVersion,
    marketing_version: s.marketingVersion,
    session_attempts: s.sessionAttempts,
    daily_attempts: s.dailyAttempts,
    coverage_max_age_days: s.coverageMaxAgeDays,
    experiment_id: s.experiment?.id ?? '',
    experiment_variants: s.experiment?.variants ?? 0,
    updated_at: new Date().toISOString(),
  };
}

export async function findStorefront(db: AppDatabase, workspaceId: number): Promise<Storefront | undefined> {
  const row = await db.selectFrom('tryon_storefronts').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row && toStorefront(row);
}

/** Creates or updates a storefront; fields left out keep their value (or the default). */
export async function upsertStorefront(db: AppDatabase, workspaceId: number, changes: StorefrontChanges): Promise<Storefront> {
  const current = await findStorefront(db, workspaceId);
  const next = {
    workspaceId,
    origins: [],
    experiment: null,
    ...STOREFRONT_DEFAULTS,
    ...current,
    ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
  } as Storefront;
  const row = toRow(next);
  if (current) {
    await db.updateTable('tryon_storefronts').set(row).where('workspace_id', '=', workspaceId).execute();
  } else {
    await db.insertInto('tryon_storefronts').values(row).execute();
  }
  return toStorefront(row);
}

/**
 * Takes the storefront row's write lock until the transaction ends, so that checks counting the
 * workspace's rows and the insert after them cannot interleave with another request's. PostgreSQL
 * holds the lock of an updated row until commit; SQLite runs one write transaction at a time.
 */
export async function lockStorefront(db: AppDatabase, workspaceId: number): Promise<void> {
  await db
    .updateTable('tryon_storefronts')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('workspace_id', '=', workspaceId)
    .execute();
}
