import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './root.ts';

// An engine of a suite's own, for a suite that stops, kills or freezes it: the local stack's
// script (deploy/scripts/<engine>.sh) with a stack folder and ports of the suite's own
// (DEVTRAIL_STACK_DIR, DEVTRAIL_PORT_OFFSET), so the shared stack and every suite running
// beside this one go on undisturbed (docs/testing.md).

export type EngineName = 'kafka' | 'postgres' | 'clickhouse';

/** The shared stack's ports (docs/local-stack.md); a private engine adds its offset. */
const BASE_PORT: Record<EngineName, number> = { kafka: 19092, postgres: 15432, clickhouse: 18123 };

export interface PrivateEngine {
  name: EngineName;
  /** Its address as the services take it: KAFKA_BROKERS, DATABASE_URL or CLICKHOUSE_URL. */
  address: string;
  /** Its stack folder: data, pid file and log (logs/<engine>.log). */
  dir: string;
  start(): Promise<void>;
  /** Graceful stop (data kept). */
  stop(): Promise<void>;
  /** SIGKILL (data kept): a crash. */
  kill(): Promise<void>;
  /** Stops it and deletes its folder. */
  close(): Promise<void>;
}

function script(name: EngineName, action: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = spawn('bash', [`deploy/scripts/${name}.sh`, action], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (out += d));
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name}.sh ${action} failed (${code}):\n${out}`))));
  });
}

const addressOf = (name: EngineName, port: number) =>
  name === 'kafka' ? `127.0.0.1:${port}` : name === 'postgres' ? `postgresql://devtrail:devtrail@127.0.0.1:${port}/devtrail` : `http://127.0.0.1:${port}`;

/**
 * Starts a private engine and returns it. Its ports are the stack's shifted by an offset from
 * 2000 to 8990 (below Linux's ephemeral range, away from the stacks of worktrees, which use
 * small offsets); a start whose port is taken by another suite's engine tries another offset.
 */
export async function privateEngine(name: EngineName): Promise<PrivateEngine> {
  const dir = mkdtempSync(join(tmpdir(), `dt-${name}-`));
  for (let attempt = 1; ; attempt++) {
    const offset = 2000 + 10 * Math.floor(Math.random() * 700);
    const env = { DEVTRAIL_STACK_DIR: dir, DEVTRAIL_PORT_OFFSET: String(offset) };
    try {
      await script(name, 'start', env);
    } catch (err) {
      if (attempt < 4 && /already taken/.test((err as Error).message)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return {
      name,
      address: addressOf(name, BASE_PORT[name] + offset),
      dir,
      start: () => script(name, 'start', env),
      stop: () => script(name, 'stop', env),
      kill: () => script(name, 'kill', env),
      async close() {
        await script(name, 'stop', env).catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}
