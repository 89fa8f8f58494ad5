import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';
import { createLogger } from '../log.ts';
import { openStores, type Stores } from '../store/index.ts';
import { buildApp } from '../server/app.ts';
import { createRateLimits } from '../http/rate-limit.ts';
import { createWorkspace, listWorkspaces } from '../store/app/workspaces.ts';
import { createApiKey } from '../store/app/api-keys.ts';
import { createDemoUser, type DemoUser } from '../dashboard/demo-user.ts';
import { MAX_DEMO_DAYS } from './commands/demo.ts';
import { seedDemoStore } from './demo/demo-store.ts';
import type { Logger } from 'pino';
import { removeServerInfo, runningServer, writeServerInfo } from '../server/runtime-files.ts';
import { runCommand } from './run-command.ts';
import { PRIVATE_FILE } from '../store/private-files.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Fails early, before any seeding, when another process holds the port. */
async function ensurePortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(portError(error, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

function portError(error: NodeJS.ErrnoException, port: number): Error {
  if (error.code === 'EADDRINUSE') return new Error(`Port ${port} is already in use; stop the other process or set PORT`);
  if (error.code === 'EACCES') return new Error(`Port ${port} needs privileges this process does not have; set PORT`);
  return error;
}

export interface DemoWorkspace {
  workspaceId: number;
  apiKey: string;
  clientSecret: string;
  pixelId: string;
  user: DemoUser;
}

/**
 * On a data dir without any workspace: a "Demo Store" with the demo shop's data. A marker file
 * lives in the data dir while seeding runs, so a seed cut short (Ctrl-C) is reported at the next
 * start instead of passing silently for a finished demo.
 */
export async function seedDemoWorkspace(config: Config, stores: Stores, logger: Logger): Promise<DemoWorkspace | null> {
  const marker = path.join(config.dataDir, 'demo-seeding');
  if (fs.existsSync(marker)) {
    const id = fs.readFileSync(marker, 'utf8').trim();
    say(
      `The demo seeding of workspace ${id} was interrupted, so its data is incomplete. Start over with an ` +
        `empty data dir, or fill a new workspace with \`workspace create\` and \`demo\`. (Delete ${marker} to silence this.)`,
    );
  }
  if (!config.demo || (await listWorkspaces(stores.db)).length > 0) return null;
  if (config.demoDays < 1 || config.demoDays > MAX_DEMO_DAYS) {
    throw new Error(`STORELENS_DEMO_DAYS must be from 1 to ${MAX_DEMO_DAYS}`);
  }
  const workspace = await createWorkspace(stores.db, { name: 'Demo Store', currency: 'USD', timezone: 'UTC' });
  const key = await createApiKey(stores.db, workspace.id, ['admin:admin']);
  const user = await createDemoUser(stores.db, workspace.id);
  say(`New data dir: seeding a demo workspace with ${config.demoDays} days of data (STORELENS_DEMO=0 skips this)`);
  fs.writeFileSync(marker, String(workspace.id), { mode: PRIVATE_FILE });
  await seedDemoStore(stores, workspace.id, { days: config.demoDays, workflows: config.workflows, logger, progress: say });
  fs.rmSync(marker);
  return { workspaceId: workspace.id, apiKey: key.api_key, clientSecret: key.client_secret, pixelId: workspace.pixelId, user };
}

function demoInstructions(demo: DemoWorkspace, baseUrl: string): string {
  return [
    '',
    `Demo workspace ${demo.workspaceId} ("Demo Store") is ready.`,
    `  api key:       ${demo.apiKey}`,
    `  client secret: ${demo.clientSecret}`,
    `  pixel id:      ${demo.pixelId}`,
    '',
    `Dashboard: ${baseUrl}/  (email ${demo.user.email}, password ${demo.user.password})`,
    '',
    'Try it:',
    `  curl -s '${baseUrl}/v3/conversions?group_by=adv_source' -H 'x-api-key: ${demo.apiKey}' -H 'client-secret: ${demo.clientSecret}'`,
    '',
    'Pixel snippet for a shop page:',
    `  <script>window.storelens = window.storelens || function(){(storelens.q = storelens.q || []).push(arguments)};</script>`,
    `  <script async src="${baseUrl}/pixel.js" data-pixel-id="${demo.pixelId}"></script>`,
    '',
  ].join('\n');
}

/**
 * `npm start`: opens the stores, seeds a demo workspace on a new data dir, then serves. The port
 * opens only after seeding, so /healthz answering means the service is ready.
 */
export async function start(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const other = runningServer(config.dataDir);
  if (other) throw new Error(`A server (pid ${other.pid}) already serves ${config.dataDir} on port ${other.port}`);
  await ensurePortFree(config.port, config.host);
  const stores = await openStores(config, logger);
  const limits = await createRateLimits(config.rate, config.redisUrl, logger);
  const app = await buildApp({ config, stores, logger, limits, runCommand });
  const release = async () => {
    await app.close();
    await limits.close();
    await stores.close();
  };

  let demo: DemoWorkspace | null;
  try {
    demo = await seedDemoWorkspace(config, stores, logger);
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await release().catch(() => {});
    throw portError(error as NodeJS.ErrnoException, config.port);
  }
  const port = (app.server.address() as AddressInfo).port;
  writeServerInfo(config.dataDir, { pid: process.pid, port });
  const baseUrl = config.publicUrl ?? `http://localhost:${port}`;
  if (demo) process.stdout.write(`${demoInstructions(demo, baseUrl)}\n`);
  say(`Storelens serves on http://localhost:${port} (data in ${config.dataDir})`);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      say(`${signal} again: exiting without a clean shutdown`);
      process.exit(1);
    }
    closing = true;
    say(`${signal}: shutting down`);
    removeServerInfo(config.dataDir);
    release().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
