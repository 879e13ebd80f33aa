import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../src/index.ts';

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
});
