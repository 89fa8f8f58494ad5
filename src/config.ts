import path from 'node:path';

/** Everything the process reads from its environment, read once. */
export interface Config {
  port: number;
  /** Address to listen on (`HOST`); loopback by default, so nothing outside the machine reaches it unasked. */
  host: string;
  dataDir: string;
  demo: boolean;
  /** Days of demo data seeded on a new data dir (`STORELENS_DEMO_DAYS`, default 90). */
  demoDays: number;
  clickhouseUrl: string | null;
  /** Cluster the analytics schema is created on (`STORELENS_CLICKHOUSE_CLUSTER`, docs/scaling.md); needs CLICKHOUSE_URL. */
  clickhouseCluster: string | null;
  /** Embedded chDB sessions that run queries in parallel (`STORELENS_CHDB_SESSIONS`, default 4). */
  chdbSessions: number;
  databaseUrl: string | null;
  redisUrl: string | null;
  logLevel: string;
  /**
   * Data-API limits per key; 0 turns one off. `redisPrefix` namespaces the counters in Redis so
   * several deployments (or test runs) can share one server.
   */
  rate: { perSecond: number; burst: number; daily: number; redisPrefix?: string };
  /** Request header that carries the visitor's country code (set by a proxy or CDN). */
  countryHeader: string;
  /**
   * Request header that carries the visitor's city (set by a proxy or CDN, e.g. Cloudflare's
   * `cf-ipcity`); null when not configured: the city then comes from the IP-to-city database.
   */
  cityHeader: string | null;
  /**
   * Whether X-Forwarded-For names the client (`STORELENS_TRUST_PROXY=1` behind a proxy). Off by
   * default: without a proxy a client could pick its own address and slip past per-client limits.
   */
  trustProxy: boolean;
  /**
   * Analytics load per key (docs/operations.md): the engine time limit of each analytics query
   * (`STORELENS_QUERY_TIMEOUT_MS`, 0 = none) and how many data requests and tool calls one key may
   * have in flight in this process (`STORELENS_MAX_QUERIES_PER_KEY`, default 20, never below the
   * rate limit's burst; 0 = no bound).
   */
  queries: { timeoutMs: number; maxPerKey: number };
  /**
   * Bulk exports (docs/exports.md): the engine time limit of one whole export, time spent waiting
   * for a slow client included (`STORELENS_EXPORT_TIMEOUT_MS`, default 30 minutes, 0 = none), and
   * how many exports stream at once in this process (`STORELENS_MAX_EXPORTS`, default 2; at least
   * 1): each holds one engine session while it runs, so the rest stay free for other reads.
   */
  exports: { timeoutMs: number; concurrency: number };
  /**
   * Reports kept for repeated requests per process (`STORELENS_RESULT_CACHE_MB`, default 64, 0 =
   * none; docs/architecture.md, "Result cache").
   */
  resultCacheMb: number;
  /** Whether `/admin/cli` answers clients other than loopback (`STORELENS_ADMIN_REMOTE=1`). */
  adminRemote: boolean;
  /**
   * Key of the secret box that encrypts stored credentials (`STORELENS_SECRET_KEY`, 32 bytes as hex
   * or base64); null: a key generated in `<data dir>/secret.key`.
   */
  secretKey: string | null;
  /** Public base URL, used for signed URLs and printed curl lines. */
  publicUrl: string | null;
  /**
   * Browser origins allowed to call the tool endpoint besides the public URL's and loopback ones
   * (`STORELENS_MCP_ALLOWED_ORIGINS`, comma-separated; docs/mcp.md).
   */
  mcpAllowedOrigins: string[];
  /**
   * Fetching OAuth clients' metadata documents (docs/mcp.md, "Client ID Metadata Documents"): the
   * time limit of one whole fetch (`STORELENS_OAUTH_CLIENT_TIMEOUT_MS`, default 5 s), and the host
   * names whose document may live on a private or loopback address
   * (`STORELENS_OAUTH_CLIENT_PRIVATE_HOSTS`, comma-separated; none by default).
   */
  oauthClientDocuments: { timeoutMs: number; privateHosts: string[] };
  /** The collector (docs/collection.md): WAL flush cadence and per-pixel rate limits; 0 turns a limit off. */
  collect: { flushMs: number; maxRows: number; perClientPerMinute: number; perPixelPerSecond: number };
  /** Storefront try-on API (docs/try-on.md). */
  tryon: TryOnConfig;
  /** Ad platform API pulls (docs/integrations.md). */
  ads: AdsConfig;
  /** The workflow engine and its actions (docs/workflows.md). */
  workflows: WorkflowsConfig;
  /** The assistant that AI-visibility prompts are asked (docs/families.md, "AI visibility"); null: not configured. */
  llm: LlmConfig | null;
}

export interface LlmConfig {
  /** Base URL of an OpenAI-compatible API (`STORELENS_LLM_URL`, e.g. https://api.openai.com/v1); `/chat/completions` is appended. */
  url: string;
  /** Bearer key (`STORELENS_LLM_KEY`): a secret, never logged or returned; null sends no authorization. */
  apiKey: string | null;
  /** Model asked (`STORELENS_LLM_MODEL`, default gpt-4o-mini). */
  model: string;
  /** Deadline of one whole prompt, connecting to the last byte of the answer (`STORELENS_LLM_TIMEOUT_MS`, default 30 s). */
  timeoutMs: number;
  /** The endpoint may be a private, loopback or link-local address (`STORELENS_LLM_ALLOW_PRIVATE=1`, e.g. a local model server). */
  allowPrivate: boolean;
}

function llmFromEnv(env: NodeJS.ProcessEnv): LlmConfig | null {
  const url = env.STORELENS_LLM_URL;
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('STORELENS_LLM_URL must be an http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('STORELENS_LLM_URL must be an http(s) URL');
  return {
    url: url.replace(/\/+$/, ''),
    apiKey: env.STORELENS_LLM_KEY || null,
    model: env.STORELENS_LLM_MODEL || 'gpt-4o-mini',
    timeoutMs: Math.max(1, intFromEnv(env, 'STORELENS_LLM_TIMEOUT_MS', 30_000)),
    allowPrivate: env.STORELENS_LLM_ALLOW_PRIVATE === '1',
  };
}

export interface WorkflowsConfig {
  /** How often the engine looks for due workflows (`STORELENS_WORKFLOWS_CHECK_MS`, default 60 s); 0 = no engine loop. */
  checkMs: number;
  /** SMTP server for notify_email (`STORELENS_SMTP_URL`, e.g. smtps://user:pass@mail.example.com); null: e-mails are skipped. */
  smtpUrl: string | null;
  /** Sender of those e-mails (`STORELENS_SMTP_FROM`). */
  smtpFrom: string;
  /** Webhooks may go to private, loopback and link-local addresses (`STORELENS_WEBHOOK_ALLOW_PRIVATE=1`). */
  webhookAllowPrivate: boolean;
  /** Deadline of one whole webhook try, connecting to the last byte of the answer (`STORELENS_WEBHOOK_TIMEOUT_MS`, default 10 s). */
  webhookTimeoutMs: number;
  /** Wait before a webhook's second try, doubled before the third (`STORELENS_WEBHOOK_RETRY_MS`, default 2 s). */
  webhookRetryMs: number;
  /** Executions older than this many days are deleted, past each workflow's newest 100 (`STORELENS_WORKFLOW_EXECUTION_DAYS`, default 90). */
  executionDays: number;
}

function workflowsFromEnv(env: NodeJS.ProcessEnv): WorkflowsConfig {
  return {
    checkMs: intFromEnv(env, 'STORELENS_WORKFLOWS_CHECK_MS', 60_000),
    smtpUrl: env.STORELENS_SMTP_URL || null,
    smtpFrom: env.STORELENS_SMTP_FROM || 'Storelens <storelens@localhost>',
    webhookAllowPrivate: env.STORELENS_WEBHOOK_ALLOW_PRIVATE === '1',
    webhookTimeoutMs: Math.max(1, intFromEnv(env, 'STORELENS_WEBHOOK_TIMEOUT_MS', 10_000)),
    webhookRetryMs: intFromEnv(env, 'STORELENS_WEBHOOK_RETRY_MS', 2_000),
    executionDays: Math.max(1, intFromEnv(env, 'STORELENS_WORKFLOW_EXECUTION_DAYS', 90)),
  };
}

export interface AdsConfig {
  /** Graph API base with its version (`STORELENS_META_API_URL`). */
  metaApiUrl: string;
  /** Google Ads API REST base with its version (`STORELENS_GOOGLE_ADS_API_URL`). */
  googleAdsApiUrl: string;
  /** Google's OAuth token endpoint (`STORELENS_GOOGLE_OAUTH_TOKEN_URL`). */
  googleTokenUrl: string;
  /** First wait before retrying a throttled call and between polls of a Meta report run, doubled per retry. */
  retryBaseMs: number;
  /** How often the server looks for accounts whose daily pull is due; 0 = no schedule. */
  scheduleCheckMs: number;
}

function adsFromEnv(env: NodeJS.ProcessEnv): AdsConfig {
  return {
    metaApiUrl: env.STORELENS_META_API_URL || 'https://graph.facebook.com/v24.0',
    googleAdsApiUrl: env.STORELENS_GOOGLE_ADS_API_URL || 'https://googleads.googleapis.com/v22',
    googleTokenUrl: env.STORELENS_GOOGLE_OAUTH_TOKEN_URL || 'https://oauth2.googleapis.com/token',
    retryBaseMs: intFromEnv(env, 'STORELENS_ADS_RETRY_MS', 5_000),
    scheduleCheckMs: intFromEnv(env, 'STORELENS_ADS_SCHEDULE_CHECK_MS', 600_000),
  };
}

export interface TryOnConfig {
  /** `local`: files under <data dir>/tryon behind URLs signed by the service; `s3`: a bucket. */
  storage: 'local' | 's3';
  s3: { bucket: string; region: string; endpoint: string | null; accessKeyId: string | null; secretAccessKey: string | null; forcePathStyle: boolean };
  /** `compositor`: local sharp compositor; `http`: an image-editing provider at providerUrl. */
  generator: 'compositor' | 'http';
  providerUrl: string | null;
  providerToken: string | null;
  /** HMAC key for signed storage and media URLs; generated in the data dir when empty. */
  signingSecret: string | null;
  /** Worker poll interval in ms; 0 = no background loop (tests drive the worker). */
  workerIntervalMs: number;
  /** Sweeper interval in ms; 0 = no background loop. */
  sweepIntervalMs: number;
  /**
   * Open upload reservations (not yet a job, not yet swept) allowed per client network and per
   * workspace; 0 turns one off (docs/try-on.md, "Uploads").
   */
  openUploadsPerClient: number;
  openUploadsPerWorkspace: number;
  /** Leads older than this many days are deleted by the sweeper; 0 keeps none past the next sweep. */
  leadRetentionDays: number;
}

function tryOnFromEnv(env: NodeJS.ProcessEnv): TryOnConfig {
  const storage = env.STORELENS_TRYON_STORAGE || 'local';
  if (storage !== 'local' && storage !== 's3') throw new Error('STORELENS_TRYON_STORAGE must be local or s3');
  const generator = env.STORELENS_TRYON_GENERATOR || 'compositor';
  if (generator !== 'compositor' && generator !== 'http') throw new Error('STORELENS_TRYON_GENERATOR must be compositor or http');
  if (storage === 's3' && !env.STORELENS_TRYON_S3_BUCKET) throw new Error('STORELENS_TRYON_S3_BUCKET is required for s3 storage');
  if (generator === 'http' && !env.STORELENS_TRYON_PROVIDER_URL) throw new Error('STORELENS_TRYON_PROVIDER_URL is required for the http generator');
  return {
    storage,
    s3: {
      bucket: env.STORELENS_TRYON_S3_BUCKET || '',
      region: env.STORELENS_TRYON_S3_REGION || 'us-east-1',
      endpoint: env.STORELENS_TRYON_S3_ENDPOINT || null,
      accessKeyId: env.STORELENS_TRYON_S3_ACCESS_KEY_ID || null,
      secretAccessKey: env.STORELENS_TRYON_S3_SECRET_ACCESS_KEY || null,
      forcePathStyle: env.STORELENS_TRYON_S3_FORCE_PATH_STYLE === '1',
    },
    generator,
    providerUrl: env.STORELENS_TRYON_PROVIDER_URL || null,
    providerToken: env.STORELENS_TRYON_PROVIDER_TOKEN || null,
    signingSecret: env.STORELENS_TRYON_SIGNING_SECRET || null,
    workerIntervalMs: intFromEnv(env, 'STORELENS_TRYON_WORKER_INTERVAL_MS', 500),
    sweepIntervalMs: intFromEnv(env, 'STORELENS_TRYON_SWEEP_INTERVAL_MS', 60_000),
    openUploadsPerClient: intFromEnv(env, 'STORELENS_TRYON_OPEN_UPLOADS_PER_CLIENT', 10),
    openUploadsPerWorkspace: intFromEnv(env, 'STORELENS_TRYON_OPEN_UPLOADS_PER_WORKSPACE', 200),
    leadRetentionDays: intFromEnv(env, 'STORELENS_TRYON_LEAD_RETENTION_DAYS', 30),
  };
}

/** A comma-separated list, entries trimmed, empty ones left out. */
function listFromEnv(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
}

/** Comma-separated origins, each normalised to `scheme://host[:port]`; anything else stops start-up. */
function originsFromEnv(env: NodeJS.ProcessEnv, name: string): string[] {
  return listFromEnv(env, name).map((entry) => {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`${name}: ${entry} is not an origin (scheme://host[:port])`);
    }
    if (url.origin === 'null') throw new Error(`${name}: ${entry} is not an origin (scheme://host[:port])`);
    return url.origin;
  });
}

function clusterFromEnv(env: NodeJS.ProcessEnv): string | null {
  const cluster = env.STORELENS_CLICKHOUSE_CLUSTER || null;
  if (cluster && !env.CLICKHOUSE_URL) throw new Error('STORELENS_CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL (a cluster is a ClickHouse server)');
  return cluster;
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
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.STORELENS_DATA_DIR || './data'),
    demo: env.STORELENS_DEMO !== '0',
    demoDays: intFromEnv(env, 'STORELENS_DEMO_DAYS', 90),
    clickhouseUrl: env.CLICKHOUSE_URL || null,
    clickhouseCluster: clusterFromEnv(env),
    chdbSessions: Math.max(1, intFromEnv(env, 'STORELENS_CHDB_SESSIONS', 4)),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    logLevel: env.LOG_LEVEL || 'warn',
    rate: {
      perSecond: intFromEnv(env, 'STORELENS_RATE_PER_SECOND', 10),
      burst: intFromEnv(env, 'STORELENS_RATE_BURST', 20),
      daily: intFromEnv(env, 'STORELENS_DAILY_QUOTA', 4320),
      redisPrefix: env.STORELENS_REDIS_PREFIX || 'storelens',
    },
    countryHeader: (env.STORELENS_COUNTRY_HEADER || 'cf-ipcountry').toLowerCase(),
    cityHeader: env.STORELENS_CITY_HEADER ? env.STORELENS_CITY_HEADER.toLowerCase() : null,
    trustProxy: env.STORELENS_TRUST_PROXY === '1',
    queries: {
      timeoutMs: intFromEnv(env, 'STORELENS_QUERY_TIMEOUT_MS', 10_000),
      maxPerKey: intFromEnv(env, 'STORELENS_MAX_QUERIES_PER_KEY', 20),
    },
    exports: {
      timeoutMs: intFromEnv(env, 'STORELENS_EXPORT_TIMEOUT_MS', 1_800_000),
      concurrency: Math.max(1, intFromEnv(env, 'STORELENS_MAX_EXPORTS', 2)),
    },
    resultCacheMb: intFromEnv(env, 'STORELENS_RESULT_CACHE_MB', 64),
    adminRemote: env.STORELENS_ADMIN_REMOTE === '1',
    publicUrl: env.STORELENS_PUBLIC_URL || null,
    mcpAllowedOrigins: originsFromEnv(env, 'STORELENS_MCP_ALLOWED_ORIGINS'),
    oauthClientDocuments: {
      timeoutMs: Math.max(1, intFromEnv(env, 'STORELENS_OAUTH_CLIENT_TIMEOUT_MS', 5_000)),
      privateHosts: listFromEnv(env, 'STORELENS_OAUTH_CLIENT_PRIVATE_HOSTS').map((host) => host.toLowerCase()),
    },
    secretKey: env.STORELENS_SECRET_KEY || null,
    collect: {
      flushMs: Math.max(10, intFromEnv(env, 'STORELENS_COLLECT_FLUSH_MS', 500)),
      maxRows: 5000,
      perClientPerMinute: intFromEnv(env, 'STORELENS_COLLECT_RATE_PER_CLIENT', 600),
      perPixelPerSecond: intFromEnv(env, 'STORELENS_COLLECT_RATE_PER_PIXEL', 1000),
    },
    tryon: tryOnFromEnv(env),
    ads: adsFromEnv(env),
    workflows: workflowsFromEnv(env),
    llm: llmFromEnv(env),
    ...overrides,
  };
}
