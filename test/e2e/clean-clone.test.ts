import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT } from '../support/processes.ts';
import { welcomeOf } from '../support/log-lines.ts';
import { freshKey } from '../support/embedded-process.ts';

// A clean clone (no node_modules, no data dir) runs the README's first command
// exactly as written, and the pipeline answers. The second command is the one .ci/run
// runs (this very suite runs inside it), which the last test checks.

function readmeCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- readme-commands:start -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('a clean clone with the README commands', () => {
  it('README names exactly two commands: run, then test', () => {
    const cmds = readmeCommands();
    expect(cmds).toEqual(['npm install && npm start', 'make test']);
  });

  it('runs the first command as written and the pipeline answers', { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dt-clone-'));
    dirs.push(dir);
    execFileSync('git', ['clone', '--quiet', ROOT, dir]);
    const port = await freePort();
    const [first] = readmeCommands();
    let out = '';
    const child = spawn('bash', ['-c', first], {
      cwd: dir,
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', DEVTRAIL_DATA_DIR: '', DEVTRAIL_OPERATOR_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    try {
      const deadline = Date.now() + 540_000;
      while (!out.includes('devtrail is running')) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`first README command did not start devtrail:\n${out.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      // On its first start it logs where it runs and where its secrets are (not a terminal: one
      // JSON line, no secret in it); the token is in .data/operator-token, a key comes from revoke-key.
      const welcome = welcomeOf(out);
      expect(welcome, out).toMatchObject({ url: `http://127.0.0.1:${port}`, project: { name: 'default' } });
      const key = await freshKey(`http://127.0.0.1:${port}`, readFileSync(resolve(dir, welcome!.operator_token_file), 'utf8').trim(), welcome!.project!.id);
      expect(key).toMatch(/^dt_[0-9a-f]{24}$/);
      const r = await fetch(`http://127.0.0.1:${port}/ingest/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'demo', logs: [{ level: 'info', message: 'hello devtrail' }] }),
      });
      expect(r.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
      // Data lives in the clone's .data/ (the documented default).
      expect(execFileSync('ls', [join(dir, '.data')]).toString()).toMatch(/operator-token/);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await new Promise((r) => setTimeout(r, 2000));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });

  it('CI runs the README test command after starting the real services', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const [, testCmd] = readmeCommands();
    const lines = ci.split('\n').map((l) => l.trim());
    expect(lines.indexOf('make services-up || exit 1')).toBeGreaterThan(-1);
    expect(lines.indexOf(testCmd)).toBeGreaterThan(lines.indexOf('make services-up || exit 1'));
  });
});
