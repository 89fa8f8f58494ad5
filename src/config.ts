import path from 'node:path';

/** Everything the process reads from its environment, read once. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  demo: boolean;
  clickhouseUrl: string | null;
  databaseUrl: string | null;
  redisUrl: string | null;
  logLevel: string;
  rate: { perSecond: number; burst: number; daily: number };
  /** Request header that carries the visitor's country code (set by a proxy or CDN). */
  countryHeader: string;
  /** Public base URL, used for signed URLs and printed curl lines. */
  publicUrl: string | null;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  return {
    port: intFromEnv(env, 'PORT', 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.STORELENS_DATA_DIR || './data'),
    demo: env.STORELENS_DEMO !== '0',
    clickhouseUrl: env.CLICKHOUSE_URL || null,
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    logLevel: env.LOG_LEVEL || 'warn',
    rate: {
      perSecond: intFromEnv(env, 'STORELENS_RATE_PER_SECOND', 10),
      burst: intFromEnv(env, 'STORELENS_RATE_BURST', 20),
      daily: intFromEnv(env, 'STORELENS_DAILY_QUOTA', 4320),
    },
    countryHeader: (env.STORELENS_COUNTRY_HEADER || 'cf-ipcountry').toLowerCase(),
    publicUrl: env.STORELENS_PUBLIC_URL || null,
    ...overrides,
  };
}
