import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { loadLlmPrices, type LlmPriceTable } from './llm-prices.ts';
import { EVENT_KINDS, KINDS, MAX_RETENTION_DAYS } from '@devtrail/kinds';
import { READ_LIMIT_DEFAULTS } from '@devtrail/column-store';

/** The ingest body limit's default (docs/configuration.md); the SDK keeps a copy (libs/sdk/src/limits.ts). */
export const INGEST_BODY_LIMIT_DEFAULT = 5 * 1024 * 1024;
/** INGEST_RETRY_WINDOW_MS's default (docs/configuration.md). */
export const INGEST_RETRY_WINDOW_DEFAULT_MS = 600_000;

// Every setting devtrail reads, with its default, in one place. Parsed once at the
// process edge (main.ts) and passed down; no other module reads process.env.
const int = (def: number) => z.coerce.number().int().positive().default(def);
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  DEVTRAIL_MODE: z.enum(['distributed', 'embedded']).default('distributed'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DASHBOARD_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEVTRAIL_OPERATOR_TOKEN: z.string().min(16).optional(),
  DEVTRAIL_DATA_DIR: z.string().default('.data'),
  TRUST_PROXY: z.string().default(''),
  METRICS_TOKEN: z.string().min(16).optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),

  DASHBOARD_SECURE_COOKIES: bool(true),
  SESSION_IDLE_TIMEOUT_MINUTES: int(30),
  SESSION_MAX_AGE_HOURS: int(12),

  KAFKA_BROKERS: z.string().default('127.0.0.1:19092'),
  KAFKA_CLIENT_ID: z.string().default('devtrail'),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]*$/)
    .default('devtrail.'),
  KAFKA_PARTITIONS: int(3),
  KAFKA_REPLICATION_FACTOR: int(1),
  KAFKA_SSL: bool(false),
  KAFKA_SSL_CA_FILE: z.string().optional(),
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),

  CLICKHOUSE_URL: z.string().url().default('http://127.0.0.1:18123'),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/)
    .default('devtrail'),
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  // A cluster of remote_servers: the tables are Replicated…MergeTree ON CLUSTER behind Distributed ones (docs/deployment.md#a-clickhouse-cluster).
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/)
    .optional(),
  CLICKHOUSE_INSERT_QUORUM: z
    .string()
    .regex(/^(auto|[1-9][0-9]?)$/)
    .default('auto'),
  CLICKHOUSE_MIGRATE: bool(true),
  RETENTION_DAYS: z.coerce.number().int().positive().max(MAX_RETENTION_DAYS).default(30),

  DATABASE_URL: z.string().default('postgresql://devtrail:devtrail@127.0.0.1:15432/devtrail'),
  POSTGRES_CONNECT_TIMEOUT_MS: int(2000),
  POSTGRES_QUERY_TIMEOUT_MS: int(2000),

  INGEST_BODY_LIMIT_BYTES: int(INGEST_BODY_LIMIT_DEFAULT),
  INGEST_MAX_PENDING_EVENTS: int(200_000),
  INGEST_ACK_TIMEOUT_MS: int(5000),
  INGEST_RETRY_WINDOW_MS: z.coerce.number().int().min(0).max(86_400_000).default(INGEST_RETRY_WINDOW_DEFAULT_MS),
  KEY_CACHE_TTL_MS: int(60_000),
  KEY_CACHE_MAX_STALE_MS: int(600_000),
  RATE_LIMIT_PER_MINUTE: int(5000),
  RATE_WINDOW_SHIFT_MS: z.coerce.number().int().min(0).max(86_400_000).default(0),

  CONSUMERS: z.string().default([...EVENT_KINDS.map((k) => KINDS[k].name), 'alerts'].join(',')),
  CONSUMER_GROUP_PREFIX: z.string().default('devtrail-'),
  CONSUMER_BATCH_ROWS: int(20_000),
  CONSUMER_BATCH_MS: int(1000),
  CONSUMER_RETRY_MAX_MS: int(1000),
  CONSUMER_UNKNOWN_ERROR_RETRIES: z.coerce.number().int().min(0).max(1000).default(5),
  CONSUMER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(3002),

  LLM_PRICES_FILE: z.string().optional(),
  DELETION_GRACE_MS: int(30_000),

  DEVTRAIL_PUBLIC_URL: z.string().url().optional(),
  ALERT_BATCH_MS: int(200),
  ALERT_CHECK_INTERVAL_MS: int(10_000),
  ALERT_WEBHOOK_TIMEOUT_MS: int(10_000),
  ALERT_WEBHOOK_MAX_RESPONSE_BYTES: int(64 * 1024),
  ALERT_WEBHOOK_PRIVATE_ADDRESSES: z.enum(['deny', 'allow']).default('deny'),
  ALERT_RETRY_BASE_MS: int(5000),
  ALERT_RETRY_MAX_MS: int(600_000),
  ALERT_MAX_ATTEMPTS: int(8),

  SOURCE_MAP_MAX_BYTES: int(32 * 1024 * 1024),
  SOURCE_MAP_MAX_FILES_PER_RELEASE: int(5000),
  SOURCE_MAP_MAX_PROJECT_BYTES: int(1024 * 1024 * 1024),
  SOURCE_MAP_WORKER_HEAP_MB: int(384),
  SOURCE_MAP_CACHE_MB: int(128),
  SOURCE_MAP_TIMEOUT_MS: int(10_000),

  // Unset: 500 ms embedded (one engine runs reads and inserts one at a time), 10 s distributed.
  READ_MAX_EXECUTION_MS: z.coerce.number().int().min(100).optional(),
  READ_MAX_ROWS_TO_READ: int(READ_LIMIT_DEFAULTS.maxRowsToRead),
  READ_MAX_BYTES_TO_READ: int(READ_LIMIT_DEFAULTS.maxBytesToRead),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  mode: 'distributed' | 'embedded';
  host: string;
  port: number;
  dashboardPort: number;
  logLevel: Env['LOG_LEVEL'];
  operatorToken: string | undefined;
  dataDir: string;
  /** Proxies whose X-Forwarded-For / -Proto are believed (addresses, CIDRs or proxy-addr names); none when empty. */
  trustProxy: string[];
  /** Who may read /metrics on the service ports besides loopback (a bearer token), and the private port that serves it to anyone who reaches it (docs/operations.md#metrics). */
  metrics: { token: string | undefined; port: number | undefined };
  dashboard: {
    /** `Secure` and the `__Host-` prefix on the dashboard's cookies. */
    secureCookies: boolean;
    sessionIdleTimeoutMs: number;
    sessionMaxAgeMs: number;
  };
  kafka: {
    brokers: string[];
    clientId: string;
    topicPrefix: string;
    partitions: number;
    replicationFactor: number;
    /** TLS to the brokers (true, or the CA certificates to trust); SASL credentials. */
    ssl: boolean | { ca: string[] };
    sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  };
  clickhouse: {
    url: string;
    database: string;
    user: string;
    password: string;
    retentionDays: number;
    /** CLICKHOUSE_CLUSTER: the cluster the schema spans, or null for one server. */
    cluster: string | null;
    /** Replicas of a shard that confirm an insert on a cluster ('auto': a majority). */
    insertQuorum: string;
    /** false: devtrail creates and alters no ClickHouse table (the operator applies `devtrail clickhouse-schema`). */
    migrate: boolean;
  };
  postgres: { url: string; connectTimeoutMs: number; queryTimeoutMs: number };
  ingest: {
    bodyLimitBytes: number;
    maxPendingEvents: number;
    ackTimeoutMs: number;
    /** INGEST_RETRY_WINDOW_MS: how long a receiver remembers the event ids of a request it answered 503 after sending it on (docs/api.md). */
    retryWindowMs: number;
    keyCacheTtlMs: number;
    keyCacheMaxStaleMs: number;
    defaultRateLimitPerMinute: number;
    /** RATE_WINDOW_SHIFT_MS: the rate-limit and quota windows are counted on the clock shifted by this (tests: a window's turn at a known moment). */
    rateWindowShiftMs: number;
    /** RETENTION_DAYS: what events of a kind whose retention a project did not set are kept for (docs/data.md). */
    defaultRetentionDays: number;
  };
  consumers: { enabled: string[]; groupPrefix: string; batchRows: number; batchMs: number; retryMaxMs: number; unknownErrorRetries: number; metricsPort: number };
  /** Prices behind estimated_cost_usd (data/llm-prices.json, overridden by LLM_PRICES_FILE). */
  llmPrices: LlmPriceTable;
  /** How long a finished deletion waits before it checks once more that nothing came back (docs/data.md#deletion). */
  deletionGraceMs: number;
  /** Where people reach the dashboard (links in notifications); unset: no links. */
  publicUrl: string | undefined;
  /** The alerts consumer and its deliveries (docs/alerts.md). */
  alerts: {
    batchMs: number;
    checkIntervalMs: number;
    webhookTimeoutMs: number;
    maxResponseBytes: number;
    allowPrivateAddresses: boolean;
    retryBaseMs: number;
    retryMaxMs: number;
    maxAttempts: number;
  };
  /** The limits every read of the read API and the explorer runs under (docs/api.md, "Read limits"). */
  reads: { maxExecutionMs: number; maxRowsToRead: number; maxBytesToRead: number };
  /** Source map uploads and the source-map worker's budget (docs/source-maps.md). */
  sourceMaps: {
    maxBytes: number;
    maxFilesPerRelease: number;
    maxProjectBytes: number;
    budget: { heapMb: number; cacheMb: number; timeoutMs: number; queue: number };
  };
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = {}): Config {
  // An empty variable means "not set" (as in `FOO= cmd`), so the default applies.
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.KAFKA_SASL_MECHANISM && (!e.KAFKA_SASL_USERNAME || !e.KAFKA_SASL_PASSWORD)) {
    throw new ConfigError('invalid configuration:\n  KAFKA_SASL_MECHANISM: needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD');
  }
  let kafkaCa: string[] | undefined;
  try {
    kafkaCa = e.KAFKA_SSL_CA_FILE ? [readFileSync(e.KAFKA_SSL_CA_FILE, 'utf8')] : undefined;
  } catch (err) {
    throw new ConfigError(`invalid configuration:\n  KAFKA_SSL_CA_FILE: ${(err as Error).message}`);
  }
  let llmPrices: LlmPriceTable;
  try {
    llmPrices = loadLlmPrices(e.LLM_PRICES_FILE);
  } catch (err) {
    throw new ConfigError(`invalid configuration:\n  LLM_PRICES_FILE: ${(err as Error).message}`);
  }
  return {
    mode: e.DEVTRAIL_MODE,
    host: e.HOST,
    port: e.PORT,
    dashboardPort: e.DASHBOARD_PORT,
    logLevel: e.LOG_LEVEL,
    operatorToken: e.DEVTRAIL_OPERATOR_TOKEN,
    dataDir: e.DEVTRAIL_DATA_DIR,
    trustProxy: e.TRUST_PROXY.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    dashboard: {
      secureCookies: e.DASHBOARD_SECURE_COOKIES,
      sessionIdleTimeoutMs: e.SESSION_IDLE_TIMEOUT_MINUTES * 60_000,
      sessionMaxAgeMs: e.SESSION_MAX_AGE_HOURS * 3_600_000,
    },
    kafka: {
      brokers: e.KAFKA_BROKERS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      clientId: e.KAFKA_CLIENT_ID,
      topicPrefix: e.KAFKA_TOPIC_PREFIX,
      partitions: e.KAFKA_PARTITIONS,
      replicationFactor: e.KAFKA_REPLICATION_FACTOR,
      ssl: kafkaCa ? { ca: kafkaCa } : e.KAFKA_SSL,
      ...(e.KAFKA_SASL_MECHANISM ? { sasl: { mechanism: e.KAFKA_SASL_MECHANISM, username: e.KAFKA_SASL_USERNAME!, password: e.KAFKA_SASL_PASSWORD! } } : {}),
    },
    clickhouse: {
      url: e.CLICKHOUSE_URL,
      database: e.CLICKHOUSE_DATABASE,
      user: e.CLICKHOUSE_USER,
      password: e.CLICKHOUSE_PASSWORD,
      retentionDays: e.RETENTION_DAYS,
      cluster: e.CLICKHOUSE_CLUSTER ?? null,
      insertQuorum: e.CLICKHOUSE_INSERT_QUORUM,
      migrate: e.CLICKHOUSE_MIGRATE,
    },
    postgres: { url: e.DATABASE_URL, connectTimeoutMs: e.POSTGRES_CONNECT_TIMEOUT_MS, queryTimeoutMs: e.POSTGRES_QUERY_TIMEOUT_MS },
    ingest: {
      bodyLimitBytes: e.INGEST_BODY_LIMIT_BYTES,
      maxPendingEvents: e.INGEST_MAX_PENDING_EVENTS,
      ackTimeoutMs: e.INGEST_ACK_TIMEOUT_MS,
      retryWindowMs: e.INGEST_RETRY_WINDOW_MS,
      keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
      keyCacheMaxStaleMs: e.KEY_CACHE_MAX_STALE_MS,
      defaultRateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
      rateWindowShiftMs: e.RATE_WINDOW_SHIFT_MS,
      defaultRetentionDays: e.RETENTION_DAYS,
    },
    consumers: {
      enabled: e.CONSUMERS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      groupPrefix: e.CONSUMER_GROUP_PREFIX,
      batchRows: e.CONSUMER_BATCH_ROWS,
      batchMs: e.CONSUMER_BATCH_MS,
      retryMaxMs: e.CONSUMER_RETRY_MAX_MS,
      unknownErrorRetries: e.CONSUMER_UNKNOWN_ERROR_RETRIES,
      metricsPort: e.CONSUMER_METRICS_PORT,
    },
    llmPrices,
    deletionGraceMs: e.DELETION_GRACE_MS,
    publicUrl: e.DEVTRAIL_PUBLIC_URL?.replace(/\/+$/, ''),
    alerts: {
      batchMs: e.ALERT_BATCH_MS,
      checkIntervalMs: e.ALERT_CHECK_INTERVAL_MS,
      webhookTimeoutMs: e.ALERT_WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: e.ALERT_WEBHOOK_MAX_RESPONSE_BYTES,
      allowPrivateAddresses: e.ALERT_WEBHOOK_PRIVATE_ADDRESSES === 'allow',
      retryBaseMs: e.ALERT_RETRY_BASE_MS,
      retryMaxMs: e.ALERT_RETRY_MAX_MS,
      maxAttempts: e.ALERT_MAX_ATTEMPTS,
    },
    reads: {
      maxExecutionMs: e.READ_MAX_EXECUTION_MS ?? (e.DEVTRAIL_MODE === 'embedded' ? READ_LIMIT_DEFAULTS.oneConnectionMs : READ_LIMIT_DEFAULTS.serverMs),
      maxRowsToRead: e.READ_MAX_ROWS_TO_READ,
      maxBytesToRead: e.READ_MAX_BYTES_TO_READ,
    },
    sourceMaps: {
      maxBytes: e.SOURCE_MAP_MAX_BYTES,
      maxFilesPerRelease: e.SOURCE_MAP_MAX_FILES_PER_RELEASE,
      maxProjectBytes: e.SOURCE_MAP_MAX_PROJECT_BYTES,
      budget: {
        heapMb: e.SOURCE_MAP_WORKER_HEAP_MB,
        cacheMb: Math.min(e.SOURCE_MAP_CACHE_MB, e.SOURCE_MAP_WORKER_HEAP_MB),
        timeoutMs: e.SOURCE_MAP_TIMEOUT_MS,
        queue: 32,
      },
    },
  };
}
