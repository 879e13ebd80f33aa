import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, titled } from './engines.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const mainScript = fileURLToPath(new URL('../src/main.ts', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Running {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

async function startMain(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript], { cwd: repoRoot, env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!stderr.includes('ClickHouse HTTP interface on')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`stand-in did not start:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, stderr: () => stderr, exited };
}

/** The processes whose command line names `text` (Linux: /proc). */
function processesNaming(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

// The entry point: env configuration, and a clean stop on SIGTERM / SIGINT, on either engine.
for (const engineCase of ENGINES) {
  describe.skipIf(Boolean(engineCase.skip))(titled('src/main.ts', engineCase), () => {
    const { choice } = engineCase;
    let dataDir = '';
    afterAll(() => {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('serves on the configured port, stops on signals and keeps its data', { timeout: 120_000 }, async () => {
      dataDir = mkdtempSync(join(tmpdir(), `clickhouse-standin-main-${choice.name}-`));
      const port = await freePort();
      const env: Record<string, string> = { CLICKHOUSE_STANDIN_PORT: String(port), CLICKHOUSE_STANDIN_HOST: '127.0.0.1', CLICKHOUSE_STANDIN_DATA: dataDir };
      env.CLICKHOUSE_STANDIN_ENGINE = choice.name;
      if (choice.name === 'floor') env.CLICKHOUSE_STANDIN_PYTHON = choice.python;
      const url = `http://127.0.0.1:${port}/`;
      const post = (sql: string) => fetch(url, { method: 'POST', body: sql }).then((r) => r.text());

      const first = await startMain(env);
      expect(await (await fetch(`${url}ping`)).text()).toBe('Ok.\n');
      expect(first.stderr()).toContain(`(${choice.name} engine, ClickHouse `);
      // In a database of its own: the floor's `default` is its engine's in-memory one (README).
      await post('CREATE DATABASE app');
      await post('CREATE TABLE app.kept (n UInt32) ENGINE = MergeTree ORDER BY n');
      await post('INSERT INTO app.kept SELECT number FROM numbers(123)');
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.stderr()).toContain('SIGTERM, shutting down');

      const second = await startMain(env);
      expect(await post('SELECT count() FROM app.kept')).toBe('123\n');
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
      // The floor's engine process ends with the server (it exits when its stdin closes).
      await expect.poll(() => processesNaming(dataDir)).toEqual([]);
    });
  });
}
