import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT } from '../../../test/support/processes.ts';
import { nonJsonLines, welcomeOf } from '../../../test/support/log-lines.ts';
import { freshKey } from '../../../test/support/embedded-process.ts';

// The embedded process as a user runs it (`npm start` = tsx services/embedded/src/main.ts),
// driven only through what it prints and its HTTP front door; data survives a restart.

interface Started {
  child: ChildProcess;
  out: () => string;
  stdout: () => string;
  url: string;
}

async function startEmbedded(dataDir: string, port: number, logLevel = 'warn'): Promise<Started> {
  let out = '';
  let stdout = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/embedded/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DEVTRAIL_DATA_DIR: dataDir, LOG_LEVEL: logLevel, DEVTRAIL_OPERATOR_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => ((out += d), (stdout += d)));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!out.includes('devtrail is running')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`embedded did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 100));
  return { child, out: () => out, stdout: () => stdout, url: `http://127.0.0.1:${port}` };
}

async function stop(s: Started): Promise<number | null> {
  const exited = new Promise<number | null>((r) => s.child.once('exit', (code) => r(code)));
  s.child.kill('SIGTERM');
  return exited;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('embedded mode, one process', () => {
  it('prints a working key, stores every kind, and keeps it across a restart', { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dt-embedded-'));
    dirs.push(dataDir);
    const port = await freePort();
    const first = await startEmbedded(dataDir, port);
    // Not a terminal: what a user needs is one JSON line, like every other line on stdout; the
    // secrets are not in it, only where they are (a key comes from revoke-key).
    const printed = welcomeOf(first.stdout());
    expect(printed, first.out()).toMatchObject({ url: first.url, data_dir: dataDir, operator_token_file: join(dataDir, 'operator-token'), project: { name: 'default' } });
    const token = readFileSync(printed!.operator_token_file, 'utf8').trim();
    const projectId = printed!.project!.id;
    const key = await freshKey(first.url, token, projectId);
    expect(key).toMatch(/^dt_[0-9a-f]{24}$/);
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);

    const post = (path: string, body: unknown) =>
      fetch(`${first.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        async (r) => ({ status: r.status, body: await r.json() }),
      );
    const get = async (base: string, path: string) => (await fetch(`${base}/api/projects/${projectId}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();

    expect(await post('/ingest/logs', { service: 'demo', logs: [{ level: 'info', message: 'embedded hello', metadata: { a: 1 } }] })).toEqual({
      status: 200,
      body: { ok: true, count: 1 },
    });
    const err = await post('/ingest/errors', { error_message: 'embedded boom', stack_trace: 'Error: embedded boom\n    at f (/x/y.js:1:1)' });
    expect(err.status).toBe(200);
    expect((await post('/ingest/traces', { trace_id: 'tr-emb', span_id: 'sp-1', operation: 'GET /', start_time: new Date().toISOString(), duration_ms: 5 })).status).toBe(
      200,
    );
    expect((await post('/ingest/llm', { model: 'm', provider: 'p', operation: 'chat', input_tokens: 3, output_tokens: 4, latency_ms: 5, cost_usd: 0.5 })).status).toBe(
      200,
    );

    const readAll = async (base: string) => ({
      logs: (await get(base, '/logs')).logs,
      groups: (await get(base, '/error-groups')).groups,
      trace: (await get(base, '/traces/tr-emb')).spans,
      llm: (await get(base, '/llm-usage')).usage,
    });
    await expect
      .poll(
        async () => {
          const r = await readAll(first.url);
          return [r.logs?.length, r.groups?.length, r.trace?.length, r.llm?.length];
        },
        { timeout: 5000 },
      )
      .toEqual([1, 1, 1, 1]);
    const before = await readAll(first.url);
    expect(before.logs[0]).toMatchObject({ message: 'embedded hello', service: 'demo', metadata: { a: 1 } });
    expect(before.groups[0]).toMatchObject({ fingerprint: err.body.fingerprint, count: 1 });

    // A clean stop flushes; a restart on the same data directory finds everything.
    expect(await stop(first)).toBe(0);
    const second = await startEmbedded(dataDir, port);
    expect(welcomeOf(second.stdout())).toMatchObject({ url: second.url, operator_token_file: join(dataDir, 'operator-token') });
    expect(second.stdout()).not.toContain(token);
    const after = await readAll(second.url);
    expect(after).toEqual(before);
    // The key and the operator token survived too.
    expect(
      (
        await fetch(`${second.url}/ingest/logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ logs: [{ level: 'info', message: 'again' }] }),
        })
      ).status,
    ).toBe(200);
    expect(await stop(second)).toBe(0);
    // stdout only: on a machine without cgroup files (a network namespace's own /sys), chdb's
    // engine writes a warning straight to file descriptor 2, out of reach of any logger.
    expect([...nonJsonLines(first.stdout()), ...nonJsonLines(second.stdout())]).toEqual([]);
  });

  it('runs two instances side by side on their own port and data directory', { timeout: 120_000 }, async () => {
    const [d1, d2] = [mkdtempSync(join(tmpdir(), 'dt-emb-a-')), mkdtempSync(join(tmpdir(), 'dt-emb-b-'))];
    dirs.push(d1, d2);
    const [a, b] = await Promise.all([startEmbedded(d1, await freePort()), startEmbedded(d2, await freePort())]);
    for (const s of [a, b]) expect((await fetch(`${s.url}/health/ready`)).status).toBe(200);
    const keyA = await freshKey(a.url, readFileSync(join(d1, 'operator-token'), 'utf8').trim(), welcomeOf(a.stdout())!.project!.id);
    expect(
      (
        await fetch(`${b.url}/ingest/logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
          body: '{"logs":[{"level":"info","message":"x"}]}',
        })
      ).status,
    ).toBe(401);
    await Promise.all([stop(a), stop(b)]);
  });

  it('keeps its data directory private (0700, files 0600) and every secret out of its log lines, at the most verbose level', { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dt-emb-private-'));
    dirs.push(dataDir);
    const s = await startEmbedded(dataDir, await freePort(), 'trace');
    try {
      const token = readFileSync(join(dataDir, 'operator-token'), 'utf8').trim();
      const setupCode = readFileSync(join(dataDir, 'setup-code'), 'utf8').trim();
      expect(setupCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
      const projectId = welcomeOf(s.stdout())!.project!.id;
      const key = await freshKey(s.url, token, projectId);
      // Traffic that carries every secret in a header or a body: keys, the token, a drain
      // secret, a session, a login with a password, a setup with the code.
      expect(
        (await fetch(`${s.url}/ingest/logs`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"logs":[]}' }))
          .status,
      ).toBe(400);
      const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      expect(
        (await fetch(`${s.url}/api/admin/projects/${projectId}/drain-secret`, { method: 'PUT', headers: admin, body: '{"secret":"drain-secret-value-1"}' })).status,
      ).toBe(200);
      const me = await fetch(`${s.url}/auth/me`);
      const cookie = me.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const csrf = ((await me.json()) as { csrf_token: string }).csrf_token;
      const form = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };
      expect(
        (
          await fetch(`${s.url}/auth/setup`, {
            method: 'POST',
            headers: form,
            body: JSON.stringify({ username: 'owner', password: 'owner-password-1', setup_code: setupCode }),
          })
        ).status,
      ).toBe(201);
      expect(
        (await fetch(`${s.url}/auth/login`, { method: 'POST', headers: form, body: JSON.stringify({ username: 'owner', password: 'a-wrong-password' }) })).status,
      ).toBe(401);
      await new Promise((r) => setTimeout(r, 500));

      // Modes: the directory and everything in it, PGlite's and chdb's files included.
      const loose: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          const st = statSync(path);
          if ((st.mode & 0o077) !== 0) loose.push(`${path} ${(st.mode & 0o777).toString(8)}`);
          if (st.isDirectory()) walk(path);
        }
      };
      expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
      walk(dataDir);
      expect(loose).toEqual([]);
      expect((statSync(join(dataDir, 'operator-token')).mode & 0o777).toString(8)).toBe('600');
      // The setup code's file went with the code, once the owner existed.
      expect(readdirSync(dataDir)).not.toContain('setup-code');

      const out = s.out();
      for (const [name, secret] of Object.entries({ token, setupCode, key, drainSecret: 'drain-secret-value-1', password: 'owner-password-1', csrf })) {
        expect(out.includes(secret), `${name} in the output`).toBe(false);
      }
    } finally {
      expect(await stop(s)).toBe(0);
    }
  });
});
