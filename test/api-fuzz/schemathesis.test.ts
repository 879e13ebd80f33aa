import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';
import { DEEP, SEED } from '../support/property.ts';
import { ROOT } from '../support/root.ts';

// Schema-driven fuzzing: schemathesis (PyPI, deploy/scripts/schemathesis.sh) runs
// every check but the ones schemathesis.toml turns off against /openapi.json of an embedded
// instance: ingest, admin and read operations with their real credentials, bounded in time.
// Any 5xx, dropped connection or answer the document does not allow fails the suite, and
// schemathesis's own report (with a curl line per finding) is printed and kept in
// .devtrail/test-results/schemathesis/.

const ST = join(ROOT, '.devtrail/schemathesis-venv/bin/st');
const CONFIG = join(ROOT, 'test/api-fuzz/schemathesis.toml');
const REPORTS = join(ROOT, '.devtrail/test-results/schemathesis');
/** The whole run's budget: fuzzing and stateful phases repeat until it is spent (test:deep: five minutes). */
const MAX_TIME_S = DEEP ? 300 : 45;

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    let out = '';
    const c = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1' } });
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => c.kill('SIGKILL'), (MAX_TIME_S + 120) * 1000);
    c.on('exit', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

describe('schemathesis against the OpenAPI document (embedded instance)', () => {
  let e: EmbeddedProcess;
  let adminProject: string;

  beforeAll(async () => {
    if (!existsSync(ST)) throw new Error(`schemathesis is not installed: run deploy/scripts/schemathesis.sh install (make install does)`);
    // The fuzzer checks answers against the document, not the read-time bound (tenant-attacks.test.ts holds
    // that): with embedded's 500 ms, a generated read on a loaded machine would be a documented 503.
    e = await startEmbeddedProcess({ RATE_LIMIT_PER_MINUTE: '10000000', READ_MAX_EXECUTION_MS: '10000' });
    const r = await fetch(`${e.url}/api/admin/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'schemathesis-admin' }),
    });
    adminProject = ((await r.json()) as { project: { id: string } }).project.id;
  }, 120_000);
  afterAll(async () => e?.close());

  it('finds no server error and no answer the document does not allow', { timeout: (MAX_TIME_S + 150) * 1000 }, async () => {
    mkdirSync(REPORTS, { recursive: true });
    const { code, out } = await run(
      ST,
      [
        '--config-file',
        CONFIG,
        'run',
        `${e.url}/openapi.json`,
        '--max-time',
        String(MAX_TIME_S),
        '--seed',
        String(SEED),
        '--report',
        'junit,ndjson',
        '--report-dir',
        REPORTS,
      ],
      {
        DT_API_KEY: e.project.key,
        DT_OPERATOR_TOKEN: e.operatorToken,
        DT_READ_PROJECT: e.project.id,
        DT_ADMIN_PROJECT: adminProject,
      },
    );
    writeFileSync(join(REPORTS, 'output.txt'), out);
    if (code !== 0) console.log(out);
    expect(e.alive(), `the embedded process died during the run: ${e.output().slice(-3000)}`).toBe(true);
    expect(code, `schemathesis found problems (exit ${code}); its report is printed above and in ${REPORTS}/output.txt`).toBe(0);
  });

  it('dead-lettered nothing it accepted', async () => {
    expect(e.alive(), 'the embedded process is not running').toBe(true);
    const consumers = (
      (await (await fetch(`${e.url}/metrics`, { headers: { accept: 'application/json' } })).json()) as { consumers: Array<{ name: string; deadLettered: number }> }
    ).consumers;
    expect(consumers.length).toBeGreaterThan(0);
    const why = e
      .output()
      .split('\n')
      .filter((l) => l.includes('dead-lettered'))
      .join('\n');
    expect(Object.fromEntries(consumers.map((c) => [c.name, c.deadLettered])), why).toEqual(Object.fromEntries(consumers.map((c) => [c.name, 0])));
  });
});
