import { describe, expect, it } from 'vitest';
import { createLogger, loadConfig, ConfigError, REDACTED } from '../src/index.ts';

describe('config', () => {
  it('applies defaults from one place', () => {
    const c = loadConfig({});
    expect(c.mode).toBe('distributed');
    expect(c.port).toBe(3000);
    expect(c.kafka.brokers).toEqual(['127.0.0.1:19092']);
    expect(c.ingest.bodyLimitBytes).toBe(5 * 1024 * 1024);
    expect(c.ingest.keyCacheTtlMs).toBe(60_000);
    expect(c.ingest.defaultRateLimitPerMinute).toBe(5000);
  });

  it('parses lists and numbers from the environment', () => {
    const c = loadConfig({ KAFKA_BROKERS: 'a:1, b:2', PORT: '8080', CONSUMERS: 'logs,llm' });
    expect(c.kafka.brokers).toEqual(['a:1', 'b:2']);
    expect(c.port).toBe(8080);
    expect(c.consumers.enabled).toEqual(['logs', 'llm']);
  });

  it('rejects invalid values with a readable error', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ CLICKHOUSE_DATABASE: 'x;drop' })).toThrow(/CLICKHOUSE_DATABASE/);
  });

  it('trusts no proxy, and makes cookies Secure, unless told otherwise', () => {
    const c = loadConfig({});
    expect(c.trustProxy).toEqual([]);
    expect(c.dashboard).toEqual({ secureCookies: true, sessionIdleTimeoutMs: 30 * 60_000, sessionMaxAgeMs: 12 * 3_600_000 });
    const set = loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16', DASHBOARD_SECURE_COOKIES: 'false', SESSION_IDLE_TIMEOUT_MINUTES: '5' });
    expect(set.trustProxy).toEqual(['10.0.0.5', '192.168.0.0/16']);
    expect(set.dashboard.secureCookies).toBe(false);
    expect(set.dashboard.sessionIdleTimeoutMs).toBe(300_000);
    expect(() => loadConfig({ DASHBOARD_SECURE_COOKIES: 'yes' })).toThrow(/DASHBOARD_SECURE_COOKIES/);
  });

  it('takes Kafka TLS and SASL, and refuses a mechanism without credentials', () => {
    expect(loadConfig({}).kafka).toMatchObject({ ssl: false });
    expect(loadConfig({}).kafka.sasl).toBeUndefined();
    const c = loadConfig({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'devtrail', KAFKA_SASL_PASSWORD: 'pw' });
    expect(c.kafka).toMatchObject({ ssl: true, sasl: { mechanism: 'scram-sha-512', username: 'devtrail', password: 'pw' } });
    expect(() => loadConfig({ KAFKA_SASL_MECHANISM: 'plain' })).toThrow(/KAFKA_SASL_USERNAME/);
    expect(() => loadConfig({ KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' })).toThrow(/KAFKA_SSL_CA_FILE/);
  });
});

describe('config: ClickHouse on a cluster', () => {
  it('is one server with migrations on unless told otherwise', () => {
    expect(loadConfig({}).clickhouse).toMatchObject({ cluster: null, insertQuorum: 'auto', migrate: true });
  });

  it('takes a cluster, a quorum and migrations off, and refuses what is not a name or a count', () => {
    expect(loadConfig({ CLICKHOUSE_CLUSTER: 'prod-ch.1', CLICKHOUSE_INSERT_QUORUM: '2', CLICKHOUSE_MIGRATE: 'false' }).clickhouse).toMatchObject({
      cluster: 'prod-ch.1',
      insertQuorum: '2',
      migrate: false,
    });
    for (const bad of [
      { CLICKHOUSE_CLUSTER: 'a b' },
      { CLICKHOUSE_CLUSTER: "x' --" },
      { CLICKHOUSE_INSERT_QUORUM: '0' },
      { CLICKHOUSE_INSERT_QUORUM: 'all' },
      { CLICKHOUSE_MIGRATE: 'no' },
    ])
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(ConfigError);
  });
});

describe('logger', () => {
  it('redacts every secret-bearing field, at the top level, one level down and in headers', () => {
    const lines: string[] = [];
    const logger = createLogger('trace', 'test', { write: (l: string) => lines.push(l) });
    logger.debug(
      {
        password: 'p1',
        operator_token: 't1',
        project: { drain_secret: 's1', api_key: 'k1' },
        req: { headers: { authorization: 'Bearer t2', cookie: '__Host-dt_session=c1', 'x-csrf-token': 'x1' } },
        kept: 'visible',
      },
      'a line',
    );
    const line = lines.join('');
    for (const secret of ['p1', 't1', 's1', 'k1', 'Bearer t2', 'c1', 'x1']) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ password: REDACTED, project: { drain_secret: REDACTED }, req: { headers: { cookie: REDACTED } }, kept: 'visible' });
  });
});
