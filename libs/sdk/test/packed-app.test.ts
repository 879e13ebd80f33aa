// The SDK as a user gets it (docs/sdk.md#install): `npm pack` in libs/sdk (its prepack step
// builds dist/), the tarball installed into an empty app outside the repository, and that app
// run as separate Node processes. Delivery goes to the capture server (records what arrives;
// NOT the real receiver, which integration-real-pipeline.test.ts uses).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaptureServer, TEST_KEY, type CaptureServer } from './helpers/capture-server.js';
import { packedApp, type PackedApp } from './helpers/packed-app.js';

const run = promisify(execFile);
let packed: PackedApp;
let app: string;
let capture: CaptureServer;

beforeAll(async () => {
  packed = await packedApp('sdk-app');
  app = packed.dir;
  capture = await startCaptureServer();
}, 240_000);
afterAll(async () => {
  await capture?.close();
  packed?.remove();
});

/** Runs a script in the app (ESM, or CommonJS with `.cjs`); resolves with its exit and output whatever the exit code. */
async function script(name: string, code: string): Promise<{ code: number; stdout: string; stderr: string }> {
  writeFileSync(join(app, name), code);
  try {
    const r = await run(process.execPath, [name], { cwd: app, env: { ...process.env, URL: capture.url, NODE_ENV: 'production' }, timeout: 30_000 });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const CLIENT = `import { createClient } from '@devtrail/sdk';
const devtrail = createClient({ apiKey: '${TEST_KEY}', baseUrl: process.env.URL, service: 'outside' });`;

describe('the packed SDK installed in an app outside the repository', () => {
  it('sends 1,000 spans in 2 requests', async () => {
    const before = capture.requests.length;
    const r = await script(
      'spans.mjs',
      `${CLIENT}\nfor (let i = 0; i < 1000; i++) devtrail.startSpan('op' + i, () => {});\nawait devtrail.close();\nconsole.log(JSON.stringify(devtrail.stats()));`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ sent: 1000, requests: 2, dropped: 0 });
    expect(capture.requests.slice(before).map((q) => q.body.spans.length)).toEqual([500, 500]);
  });

  it('an uncaught exception arrives after the process exited with code 1', async () => {
    const r = await script('crash.mjs', `${CLIENT}\ndevtrail.logger.info('before the crash');\nsetTimeout(() => { throw new Error('packed crash'); }, 5);`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: packed crash');
    expect(capture.bodies('/ingest/errors').map((e) => e.error_message)).toContain('packed crash');
    expect(capture.logs().map((l) => l.message)).toContain('before the crash');
  });

  it('a plain fetch inside a span carries traceparent to the next server, and its client span is stored', async () => {
    const r = await script('fetch.mjs', `${CLIENT}\nawait devtrail.startSpan('checkout', () => fetch(process.env.URL + '/downstream/price'));\nawait devtrail.close();`);
    expect(r.code, r.stderr).toBe(0);
    const downstream = capture.requests.find((q) => q.path === '/downstream/price');
    const [, trace, spanId] = String(downstream?.headers.traceparent).split('-');
    const stored = capture.bodies('/ingest/traces');
    const client = stored.find((s) => s.span_id === spanId);
    const parent = stored.find((s) => s.operation === 'checkout' && s.trace_id === trace);
    expect(client).toMatchObject({ trace_id: trace, parent_span_id: parent?.span_id, metadata: { 'span.kind': 'client', 'http.response.status_code': 200 } });
  });

  it('beforeSend dropping an event keeps it out', async () => {
    const r = await script(
      'hooks.mjs',
      `import { createClient } from '@devtrail/sdk';
const devtrail = createClient({ apiKey: '${TEST_KEY}', baseUrl: process.env.URL, service: 'hooks', beforeSend: (e) => (e.error_message.includes('secret') ? null : e) });
devtrail.captureError(new Error('a secret failure'));
devtrail.captureError(new Error('a public failure'));
await devtrail.close();
console.log(JSON.stringify(devtrail.stats()));`,
    );
    expect(r.code, r.stderr).toBe(0);
    const mine = capture.bodies('/ingest/errors').filter((e) => e.service === 'hooks');
    expect(mine.map((e) => e.error_message)).toEqual(['a public failure']);
    expect(JSON.parse(r.stdout)).toMatchObject({ filteredOut: 1, sent: 1 });
  });

  it('a 6 MB log and a 150-character request id do not take the other records down', async () => {
    const r = await script(
      'bad-records.mjs',
      `${CLIENT}
devtrail.logger.info('x'.repeat(6 * 1024 * 1024));
const requestLog = devtrail.child({ requestId: 'r'.repeat(150) });
for (let i = 0; i < 30; i++) requestLog.info('kept ' + i);
await devtrail.close();
console.log(JSON.stringify(devtrail.stats()));`,
    );
    expect(r.code, r.stderr).toBe(0);
    const kept = capture.logs().filter((l) => l.message.startsWith('kept '));
    expect(kept).toHaveLength(30);
    expect(kept[0].request_id).toBe('r'.repeat(128));
    // 30 logs and the SDK's report of the drop (docs/sdk.md#delivery)
    expect(JSON.parse(r.stdout)).toMatchObject({ sent: 31, dropped: 1, droppedTooLarge: 1 });
    expect(capture.logs().find((l) => l.context === 'devtrail.sdk')).toMatchObject({ level: 'warn', metadata: { droppedTooLarge: 1 } });
  });

  it('@devtrail/sdk/next loads from CommonJS on a server without React installed', async () => {
    const r = await script('next.cjs', `const next = require('@devtrail/sdk/next');\nconsole.log(typeof next.withRouteHandler, typeof next.register);`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('function function');
  });

  it("npx devtrail-sourcemaps uploads a Vite build's maps with the upload token", async () => {
    mkdirSync(join(app, 'dist/assets'), { recursive: true });
    writeFileSync(join(app, 'dist/index.html'), '<script src="/assets/app.js"></script>');
    writeFileSync(join(app, 'dist/assets/app.js'), 'function a(){throw new Error("x")}a();\n//# sourceMappingURL=app.js.map\n');
    writeFileSync(join(app, 'dist/assets/app.js.map'), JSON.stringify({ version: 3, sources: ['src/app.ts'], names: [], mappings: 'AAAA' }));
    const before = capture.requests.length;
    const { stdout } = await run('npx', ['--no-install', 'devtrail-sourcemaps', 'upload', 'dist', '--release', 'r1', '--project', 'p1', '--api', capture.url], {
      cwd: app,
      env: { ...process.env, DEVTRAIL_UPLOAD_TOKEN: 'dtu_packed_test' },
    });
    expect(stdout).toContain('vite build: uploaded 1 source maps');
    expect(stdout).not.toContain('dtu_packed_test');
    const [upload] = capture.requests.slice(before);
    expect(upload).toMatchObject({ method: 'POST', path: '/api/projects/p1/source-maps', headers: { authorization: 'Bearer dtu_packed_test' } });
    expect(upload.body).toMatchObject({ release: 'r1', url: '~/assets/app.js' });
    expect(JSON.parse(upload.body.source_map)).toMatchObject({ sources: ['src/app.ts'] });
  });
});
