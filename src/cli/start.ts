import type { Config } from '../config.ts';
import { createLogger } from '../log.ts';
import { openStores } from '../store/index.ts';
import { buildApp } from '../http/app.ts';
import { createRateLimits } from '../http/rate-limit.ts';
import { removeServerInfo, runningServer, writeServerInfo } from './runtime-files.ts';

/** `npm start`: opens the stores, seeds a demo workspace on a new data dir, serves. */
export async function start(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const other = runningServer(config.dataDir);
  if (other) throw new Error(`A server (pid ${other.pid}) already serves ${config.dataDir} on port ${other.port}`);
  const stores = await openStores(config, logger);
  const limits = await createRateLimits(config.rate, config.redisUrl);
  const app = await buildApp({ config, stores, logger, limits });
  await app.listen({ port: config.port, host: config.host });
  writeServerInfo(config.dataDir, { pid: process.pid, port: config.port });
  process.stderr.write(`Storelens serves on http://localhost:${config.port} (data in ${config.dataDir})\n`);

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    removeServerInfo(config.dataDir);
    await app.close();
    await limits.close();
    await stores.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
