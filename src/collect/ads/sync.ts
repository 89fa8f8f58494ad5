/**
 * One pull of a workspace's connected ad accounts: the last N days of daily ad-level rows from
 * each platform's API, written as a new version of the ads rows they cover (the newest version per
 * (source, ad_id, dt) wins), through the same row format and writer as imports.
 */
import type { AdsConfig } from '../../config.ts';
import type { Stores } from '../../store/index.ts';
import { listAdConnections, recordAdSync, type AdConnection } from '../../store/app/ad-connections.ts';
import { findWorkspace } from '../../store/app/workspaces.ts';
import { bumpDataVersions } from '../../store/app/data-versions.ts';
import { findImportKind, newImportVersion } from '../import/kinds.ts';
import { MAX_REPORTED_ERRORS } from '../import/run.ts';
import { RowWriter } from '../import/writer.ts';
import { Invalid } from '../fields.ts';
import { AdSyncError, type ApiSettings } from './api/call.ts';
import { pullGoogle, type GoogleCredentials } from './api/google.ts';
import { pullMeta, type MetaCredentials, type PullRange } from './api/meta.ts';
import { minorDigits } from './values.ts';
import { AdRangeTracker, withdrawUnlisted } from './replace-range.ts';

/** Days a scheduled pull covers: the platforms restate about this far back. */
export const RESYNC_DAYS = 28;
export const MAX_SYNC_DAYS = 400;
const DAY_MS = 86_400_000;

export interface AccountSyncResult {
  platform: string;
  account_id: string;
  rows_imported: number;
  rows_rejected: number;
  errors: { row: number; message: string }[];
  /** Why the pull stopped; absent when it worked. */
  error?: string;
}

export interface SyncDeps {
  config: AdsConfig;
  stores: Stores;
  progress(message: string): void;
  /** Stops pulls in flight (server shutdown); a stopped pull is not recorded, so it is due again. */
  signal?: AbortSignal;
}

export function pullRange(days: number, now = Date.now()): PullRange {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { since: iso(today - (days - 1) * DAY_MS), until: iso(today), days };
}

function pullOf(connection: AdConnection, deps: SyncDeps, currency: string, settings: ApiSettings) {
  const digits = minorDigits(currency);
  if (connection.platform === 'meta') {
    const credentials = connection.credentials as unknown as MetaCredentials;
    return (range: PullRange) => pullMeta({ settings, baseUrl: deps.config.metaApiUrl, account: connection.accountId, credentials, currency, digits }, range);
  }
  const credentials = connection.credentials as unknown as GoogleCredentials;
  return (range: PullRange) =>
    pullGoogle(
      { settings, baseUrl: deps.config.googleAdsApiUrl, tokenUrl: deps.config.googleTokenUrl, customerId: connection.accountId, credentials, currency, digits },
      range,
    );
}

/** The account id as the pulled rows carry it: Meta's `account_id` has no `act_` prefix. */
const rowAccountId = (connection: AdConnection) => connection.accountId.replace(/^act_/, '');

/** Pulls one account; an AdSyncError ends it with `error` (recorded on the connection). */
export async function syncAccount(deps: SyncDeps, connection: AdConnection, currency: string, range: PullRange): Promise<AccountSyncResult> {
  const result: AccountSyncResult = { platform: connection.platform, account_id: connection.accountId, rows_imported: 0, rows_rejected: 0, errors: [] };
  const settings: ApiSettings = { retryBaseMs: deps.config.retryBaseMs, maxAttempts: 5, timeoutMs: 60_000, progress: deps.progress, signal: deps.signal };
  const target = { workspaceId: connection.workspaceId, version: newImportVersion() };
  const covered = new AdRangeTracker();
  const writer = new RowWriter(deps.stores.ch, findImportKind('ads')!, target, { onRow: (row) => covered.add(row) });
  const reject = (row: number, message: string) => {
    result.rows_rejected++;
    if (result.errors.length < MAX_REPORTED_ERRORS) result.errors.push({ row, message });
  };
  deps.progress(`${connection.platform} ${connection.accountId}: pulling ${range.since} to ${range.until}`);
  let row = 0;
  try {
    for await (const item of pullOf(connection, deps, currency, settings)(range)) {
      row++;
      const problem = item instanceof Invalid ? item.message : await writer.add(item);
      if (problem !== null) reject(row, problem);
    }
    await writer.flush();
    // The pull covers the account's whole range: an ad day it did not list had no delivery. A pull
    // that stopped half-way, or rejected a row, replaces nothing.
    if (result.rows_rejected === 0) {
      const ranges = [{ source: connection.platform, adaccountId: rowAccountId(connection), since: range.since, until: range.until }];
      for (const seen of covered.list()) if (seen.adaccountId !== ranges[0]!.adaccountId) ranges.push({ ...seen, since: range.since, until: range.until });
      await withdrawUnlisted(deps.stores.ch, connection.workspaceId, ranges, target.version);
    }
  } catch (error) {
    if (!(error instanceof AdSyncError)) throw error;
    result.error = error.message;
  } finally {
    if (writer.written > 0) await bumpDataVersions(deps.stores.db, [connection.workspaceId]);
  }
  result.rows_imported = writer.written;
  if (!deps.signal?.aborted) await recordAdSync(deps.stores.db, connection, new Date().toISOString(), result.error ?? null);
  deps.progress(`${connection.platform} ${connection.accountId}: ${result.error ? `failed: ${result.error}` : `${result.rows_imported} rows`}`);
  return result;
}

export interface WorkspaceSyncResult {
  workspace_id: number;
  start_date: string;
  end_date: string;
  accounts: AccountSyncResult[];
}

/** Pulls every account connected to the workspace (none connected: an empty list). */
export async function syncWorkspace(deps: SyncDeps, workspaceId: number, days: number, now = Date.now()): Promise<WorkspaceSyncResult> {
  const workspace = await findWorkspace(deps.stores.db, workspaceId);
  if (!workspace) throw new AdSyncError(`Workspace ${workspaceId} not found`);
  const range = pullRange(days, now);
  const accounts: AccountSyncResult[] = [];
  for (const connection of await listAdConnections(deps.stores.db, deps.stores.secrets, workspaceId)) {
    accounts.push(await syncAccount(deps, connection, workspace.currency, range));
  }
  return { workspace_id: workspaceId, start_date: range.since, end_date: range.until, accounts };
}
