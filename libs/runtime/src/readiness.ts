import type { Adapters } from './adapters.ts';

// Readiness reports each backend on its own line; any one down makes the whole 503.

export interface CheckResult {
  status: 'up' | 'down';
  kind: string;
  latency_ms: number;
  error?: string;
}

export interface Readiness {
  status: 'ok' | 'unavailable';
  timestamp: string;
  checks: { kafka: CheckResult; clickhouse: CheckResult; postgres: CheckResult };
}

async function check(kind: string, fn: () => Promise<void>, timeoutMs: number): Promise<CheckResult> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)))]);
    return { status: 'up', kind, latency_ms: Date.now() - t0 };
  } catch (err) {
    return { status: 'down', kind, latency_ms: Date.now() - t0, error: (err as Error).message?.slice(0, 300) ?? 'unknown error' };
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(a: Pick<Adapters, 'messageLog' | 'columnStore' | 'relational'>, timeoutMs = 3000): Promise<Readiness> {
  const [kafka, clickhouse, postgres] = await Promise.all([
    check(a.messageLog.kind, () => a.messageLog.ping(), timeoutMs),
    check(a.columnStore.kind, () => a.columnStore.ping(), timeoutMs),
    check(a.relational.kind, () => a.relational.ping(), timeoutMs),
  ]);
  const ok = [kafka, clickhouse, postgres].every((c) => c.status === 'up');
  return { status: ok ? 'ok' : 'unavailable', timestamp: new Date().toISOString(), checks: { kafka, clickhouse, postgres } };
}
