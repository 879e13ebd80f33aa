import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './support/processes.ts';

// docker-compose.yml is meant for servers: only the receiver and the dashboard are published,
// every credential comes from the operator's .env, and the image never holds that .env.

interface Service {
  ports?: unknown[];
  environment?: Record<string, unknown>;
}
const file = (name: string) => readFileSync(`${ROOT}/${name}`, 'utf8');
const compose = parse(file('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = Object.entries(compose.services);
const SECRET_KEY = /PASSWORD|TOKEN|SECRET/;

describe('docker-compose.yml', () => {
  it('publishes the receiver and the dashboard only', () => {
    const published = services.filter(([, s]) => (s.ports ?? []).length > 0).map(([name]) => name);
    expect(published.sort()).toEqual(['dashboard', 'receiver']);
    expect(compose.services.receiver.ports).toEqual(['3000:3000']);
    expect(compose.services.dashboard.ports).toEqual(['3001:3001']);
    // No backend listens on anything but the compose network (Kafka has no host listener).
    expect(String(compose.services.kafka.environment?.KAFKA_LISTENERS)).not.toMatch(/HOST/);
  });

  it('holds no literal password: every secret is a variable the operator sets in .env', () => {
    const required = new Set<string>();
    for (const [name, s] of services) {
      for (const [key, raw] of Object.entries(s.environment ?? {})) {
        const value = String(raw);
        for (const m of value.matchAll(/\$\{(\w+):\?[^}]*\}/g)) required.add(m[1]);
        if (SECRET_KEY.test(key)) expect(value, `${name}.${key}`).toMatch(/^\$\{\w+(:[?-][^}]*)?\}$/);
        // A URL's password, too.
        const credentials = /:\/\/[^/:@\s]+:([^@\s]+)@/.exec(value);
        if (credentials) expect(credentials[1], `${name}.${key}`).toMatch(/^\$\{\w+:\?[^}]*\}$/);
      }
    }
    expect([...required].sort()).toEqual(['CLICKHOUSE_PASSWORD', 'DEVTRAIL_OPERATOR_TOKEN', 'POSTGRES_PASSWORD']);
    // .env.example names each, with no value; .env itself is never committed nor copied into the image.
    const example = Object.fromEntries(
      file('.env.example')
        .split('\n')
        .filter((l) => /^\w+=/.test(l))
        .map((l) => l.split(/=(.*)/s).slice(0, 2)),
    );
    for (const name of required) expect(example[name], name).toBe('');
    expect(file('.gitignore').split('\n')).toContain('.env');
    expect(file('.dockerignore').split('\n')).toContain('.env');
  });
});
