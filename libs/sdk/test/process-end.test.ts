// What reaches devtrail when a Node process ends (docs/sdk.md#when-the-process-ends): the built
// package in real child processes that crash, get a signal or exit with work queued. The receiver
// is the capture server (records what arrives; NOT the real receiver, which the SDK's
// integration-real-pipeline test uses).
import { spawn } from 'node:child_process';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot, runScript } from './helpers/built-package.js';
import { startCaptureServer, TEST_KEY, type CaptureServer } from './helpers/capture-server.js';

let capture: CaptureServer;
beforeAll(ensureBuilt, 120_000);
beforeEach(async () => {
  capture = await startCaptureServer();
});
afterEach(() => capture.close());

const client = (options = '') => `
  const { createClient } = require('@devtrail/sdk');
  const devtrail = createClient({ apiKey: '${TEST_KEY}', baseUrl: process.env.URL, service: 'crashy', flushIntervalMs: 60000 ${options} });
  for (let i = 0; i < 7; i++) devtrail.logger.info('queued ' + i);`;
const errors = () => capture.bodies('/ingest/errors');

describe('a crash is reported and flushed, and the process still exits as Node would', () => {
  it('an uncaught exception: the error and the queued logs arrive, stderr has the stack, exit code 1', async () => {
    const run = await runScript(`${client()}\nsetTimeout(() => { throw new TypeError('boom at checkout'); }, 10);`, { URL: capture.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('TypeError: boom at checkout');
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toMatchObject({ error_message: 'boom at checkout', severity: 'critical', context: { mechanism: 'uncaughtException', handled: false } });
    expect(capture.logs().map((l) => l.message)).toEqual(['queued 0', 'queued 1', 'queued 2', 'queued 3', 'queued 4', 'queued 5', 'queued 6']);
  });

  it('an unhandled rejection: reported and flushed, exit code 1', async () => {
    const run = await runScript(`${client()}\nPromise.reject(new Error('nobody awaited me'));`, { URL: capture.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Error: nobody awaited me');
    expect(errors()[0]).toMatchObject({ error_message: 'nobody awaited me', context: { mechanism: 'unhandledRejection' } });
    expect(capture.logs()).toHaveLength(7);
  });

  it('--unhandled-rejections=warn: reported, and the process goes on as Node would let it', async () => {
    const run = await runScript(
      `${client()}\nPromise.reject(new Error('lenient'));\nsetTimeout(() => devtrail.close().then(() => console.log('still here')), 300);`,
      { URL: capture.url },
      ['--unhandled-rejections=warn'],
    );
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('still here');
    expect(errors()[0]).toMatchObject({ error_message: 'lenient' });
  });

  it("an app with its own uncaughtException handler keeps it: reported, and the app's handler decides", async () => {
    const script = `${client()}
      process.on('uncaughtException', (e) => { console.log('app handled ' + e.message); setTimeout(() => devtrail.close().then(() => process.exit(3)), 200); });
      setTimeout(() => { throw new Error('handled by the app'); }, 10);`;
    const run = await runScript(script, { URL: capture.url });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('app handled handled by the app');
    expect(errors()[0]).toMatchObject({ error_message: 'handled by the app' });
  });

  it('captureUncaught: false leaves crashes to Node alone (nothing sent, exit code 1)', async () => {
    const run = await runScript(`${client(', captureUncaught: false')}\nsetTimeout(() => { throw new Error('not mine'); }, 10);`, { URL: capture.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Error: not mine');
    expect(errors()).toHaveLength(0);
  });
});

describe('signals', () => {
  const untilReady = (script: string, signal: NodeJS.Signals) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot, env: { ...process.env, URL: capture.url } });
      let stdout = '';
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('ready')) child.kill(signal);
      });
      child.on('exit', (code, sig) => resolve({ code, signal: sig, stdout }));
    });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s without a handler of the app: queued logs flushed, then the process dies of the signal', async (signal) => {
    const out = await untilReady(`${client()}\nsetInterval(() => {}, 1000);\nconsole.log('ready');`, signal);
    expect(out.signal).toBe(signal);
    expect(capture.logs()).toHaveLength(7);
  });

  it("SIGTERM with the app's own handler: flushed, and the app decides when to exit", async () => {
    const script = `${client()}
      process.on('SIGTERM', () => setTimeout(() => { console.log('app exits'); process.exit(0); }, 300));
      setInterval(() => {}, 1000);
      console.log('ready');`;
    const out = await untilReady(script, 'SIGTERM');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('app exits');
    expect(capture.logs()).toHaveLength(7);
  });
});

describe('exit', () => {
  it('events still queued when the process exits are counted as dropped and said in a warning', async () => {
    const run = await runScript(`${client()}\nprocess.exit(0);`, { URL: capture.url });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/dropped 7 record\(s\): still queued when the process exited/);
    expect(capture.logs()).toHaveLength(0);
  });
});
