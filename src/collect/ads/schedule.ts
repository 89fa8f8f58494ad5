/**
 * The server's daily pull: every `scheduleCheckMs` it looks for connected accounts whose last
 * pull (successful or not) is a day old or more and pulls their last RESYNC_DAYS days again,
 * since the platforms restate recent days. One pass at a time; errors are recorded on the
 * connection and logged, never thrown; closing the app stops a pull in flight (docs/integrations.md).
 */
import type { FastifyPluginAsync } from 'fastify';
import { listAdConnections } from '../../store/app/ad-connections.ts';
import { findWorkspace } from '../../store/app/workspaces.ts';
import { pullRange, RESYNC_DAYS, syncAccount } from './sync.ts';

const DAY_MS = 86_400_000;

export const adSchedule: FastifyPluginAsync = async (app) => {
  const every = app.config.ads.scheduleCheckMs;
  if (every <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const stopping = new AbortController();
  const log = app.log;

  async function pass(): Promise<void> {
    const now = Date.now();
    // A check that lands just short of the day still counts: otherwise pulls drift a check later each day.
    const due = (at: string | null) => at === null || now - Date.parse(at) >= DAY_MS - every;
    const connections = (await listAdConnections(app.stores.db, app.stores.secrets)).filter((c) => due(c.lastSyncAt));
    for (const connection of connections) {
      if (stopping.signal.aborted) return;
      const workspace = await findWorkspace(app.stores.db, connection.workspaceId);
      if (!workspace) continue;
      const result = await syncAccount(
        { config: app.config.ads, stores: app.stores, progress: (message) => log.debug({ ads: message }, 'ad sync'), signal: stopping.signal },
        connection,
        workspace.currency,
        pullRange(RESYNC_DAYS, now),
      );
      if (stopping.signal.aborted) return;
      if (result.error) log.warn({ platform: result.platform, account: result.account_id, error: result.error }, 'scheduled ad pull failed');
      else log.info({ platform: result.platform, account: result.account_id, rows: result.rows_imported }, 'scheduled ad pull');
    }
  }

  const kick = () => {
    if (running) return;
    running = pass()
      .catch((error) => log.error({ err: error }, 'ad schedule pass failed'))
      .finally(() => (running = null));
  };
  app.addHook('onReady', async () => {
    timer = setInterval(kick, every);
    timer.unref();
    kick();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    // A pull in flight stops at its next call or wait; it is not recorded, so it runs again after a restart.
    stopping.abort();
    await running;
  });
};
