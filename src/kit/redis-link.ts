import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * A Redis connection and whether to use it. ioredis reconnects on its own (at most 2 s apart);
 * commands fail at once while it is down (no offline queue) and after 500 ms when it hangs. After
 * a failure on a connection that stays open (a hung server), one request tries Redis again every
 * 2 s. Every change between the two states is logged once, at warn, in the words of its user.
 */
export interface RedisLink {
  client: Redis;
  /** Redis answered last time and the connection is open. */
  up(): boolean;
  /** Whether the next request should use Redis: it is up, or it is time to try it again. */
  shouldTry(): boolean;
  failed(error: unknown): void;
  answered(): void;
  close(): void;
}

/** What the log says when Redis goes away and when it answers again. */
export interface RedisLinkMessages {
  down: string;
  up: string;
}

const RETRY_MS = 2000;

export async function connectRedis(url: string, logger: Logger, messages: RedisLinkMessages): Promise<RedisLink> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: RETRY_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, RETRY_MS),
  });
  let state: 'unknown' | 'up' | 'down' | 'closed' = 'unknown';
  let retryAt = 0;
  const failed = (error: unknown) => {
    if (state === 'closed') return;
    if (state !== 'down') logger.warn({ err: error }, messages.down);
    state = 'down';
    retryAt = Date.now() + RETRY_MS;
  };
  const answered = () => {
    if (state === 'closed') return;
    if (state === 'down') logger.warn(messages.up);
    state = 'up';
  };
  const open = () => client.status === 'ready';
  client.on('ready', answered);
  client.on('error', failed);
  client.on('close', () => {
    if (state === 'up') failed(new Error('connection closed'));
  });
  // A failed first attempt is not fatal: the caller starts without Redis, ioredis retries.
  await client.connect().catch(failed);
  return {
    client,
    up: () => state === 'up' && open(),
    shouldTry: () => open() && (state === 'up' || (state === 'down' && Date.now() >= retryAt)),
    failed,
    answered,
    close() {
      state = 'closed';
      client.disconnect();
    },
  };
}
