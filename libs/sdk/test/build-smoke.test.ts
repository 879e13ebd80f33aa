// Builds the package (when dist is missing or older than src) and loads it
// the way users do: by package name, through the "exports" map, in separate
// Node processes, once with require() and once with import().
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, pkgDir, repoRoot } from './helpers/built-package.js';
import { startCaptureServer } from './helpers/capture-server.js';
const ENTRIES = ['@devtrail/sdk', '@devtrail/sdk/express', '@devtrail/sdk/hono', '@devtrail/sdk/fastify', '@devtrail/sdk/next', '@devtrail/sdk/next/react'];
const EXPECTED_EXPORTS: Record<string, string[]> = {
  '@devtrail/sdk': ['createClient', 'DevtrailClient', 'init', 'getClient', 'parseTraceparent', 'installGlobalErrorHandlers'],
  '@devtrail/sdk/express': ['devtrailExpress', 'devtrailErrorHandler', 'getRequestTelemetry'],
  '@devtrail/sdk/hono': ['devtrailHono', 'getRequestTelemetry'],
  '@devtrail/sdk/fastify': ['devtrailFastify', 'getRequestTelemetry'],
  '@devtrail/sdk/next': ['register', 'onRequestError', 'withRouteHandler', 'withServerAction', 'createSpanExporter'],
  '@devtrail/sdk/next/react': ['DevtrailErrorBoundary', 'useDevtrailErrorHandlers', 'useReportError'],
};
/** Internals users must not pin: reachable only from the SDK's own source files. */
const INTERNALS = [
  'WIRE_FIELD_NAMES',
  'toWireKeys',
  'buildLogEntry',
  'buildErrorReport',
  'buildSpanRecord',
  'buildLlmRecord',
  'backoffDelay',
  'parseRetryAfter',
  'getContextManager',
  'setContextManager',
  'installAsyncContext',
];

function node(args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8' });
}

beforeAll(ensureBuilt, 120_000);

describe('package build', () => {
  it('writes ESM and CJS output with declarations for every export', () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    for (const [subpath, target] of Object.entries<any>(pkg.exports)) {
      if (subpath === './package.json') continue;
      for (const cond of [target.import, target.require, target.node?.import, target.node?.require].filter(Boolean)) {
        expect(existsSync(join(pkgDir, cond.default)), cond.default).toBe(true);
        expect(existsSync(join(pkgDir, cond.types)), cond.types).toBe(true);
      }
    }
    expect(JSON.parse(readFileSync(join(pkgDir, 'dist/cjs/package.json'), 'utf8')).type).toBe('commonjs');
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it('loads every entry with require() from the CJS build', () => {
    // The Node entry's AsyncLocalStorage context shows as the active span surviving an await.
    const script = `
      const out = {};
      for (const e of ${JSON.stringify(ENTRIES)}) out[e] = { file: require.resolve(e), keys: Object.keys(require(e)) };
      const client = require('@devtrail/sdk').createClient({ enabled: false });
      client.startSpan('outer', async () => {
        await new Promise((r) => setTimeout(r, 1));
        out.async = client.activeSpan()?.operation === 'outer';
      }).then(() => console.log(JSON.stringify(out)));`;
    const out = JSON.parse(node(['-e', script]));
    for (const entry of ENTRIES) {
      expect(out[entry].file).toContain('/dist/cjs/');
      expect(out[entry].keys).toEqual(expect.arrayContaining(EXPECTED_EXPORTS[entry]));
      expect(out[entry].keys.filter((k: string) => INTERNALS.includes(k))).toEqual([]);
    }
    expect(out.async).toBe(true);
  });

  it('loads every entry with import() from the ESM build', () => {
    const script = `
      const out = {};
      for (const e of ${JSON.stringify(ENTRIES)}) out[e] = { file: import.meta.resolve(e), keys: Object.keys(await import(e)) };
      console.log(JSON.stringify(out));`;
    const out = JSON.parse(node(['--input-type=module', '-e', script]));
    for (const entry of ENTRIES) {
      expect(out[entry].file).toContain('/dist/esm/');
      expect(out[entry].keys).toEqual(expect.arrayContaining(EXPECTED_EXPORTS[entry]));
      expect(out[entry].keys.filter((k: string) => INTERNALS.includes(k))).toEqual([]);
    }
  });

  it('the built CJS client delivers to an HTTP endpoint (capture server, not the real receiver)', async () => {
    const capture = await startCaptureServer();
    try {
      const script = `
        const { createClient } = require('@devtrail/sdk');
        const client = createClient({ apiKey: 'dt_0123456789abcdef01234567', baseUrl: process.env.URL, service: 'smoke' });
        client.startSpan('smoke-span', () => client.logger.info('from cjs'));
        client.close().then((ok) => console.log(ok));`;
      const { execFile } = await import('node:child_process');
      const stdout = await new Promise<string>((res, rej) =>
        execFile(
          process.execPath,
          ['-e', script],
          {
            cwd: repoRoot,
            env: { ...process.env, URL: capture.url },
          },
          (err, out) => (err ? rej(err) : res(out)),
        ),
      );
      expect(stdout.trim()).toBe('true');
      expect(capture.bodies('/ingest/traces')[0]).toMatchObject({ service: 'smoke', operation: 'smoke-span' });
      expect(capture.logs()[0]).toMatchObject({ message: 'from cjs', trace_id: capture.bodies('/ingest/traces')[0].trace_id });
    } finally {
      await capture.close();
    }
  });

  it('a short script that never calls close() still delivers on exit (capture server, not the real receiver)', async () => {
    const capture = await startCaptureServer();
    try {
      const script = `
        const { createClient } = require('@devtrail/sdk');
        createClient({ apiKey: 'dt_0123456789abcdef01234567', baseUrl: process.env.URL }).logger.info('last words');`;
      const { execFile } = await import('node:child_process');
      await new Promise<void>((res, rej) =>
        execFile(
          process.execPath,
          ['-e', script],
          {
            cwd: repoRoot,
            env: { ...process.env, URL: capture.url },
          },
          (err) => (err ? rej(err) : res()),
        ),
      );
      expect(capture.logs().map((l) => l.message)).toEqual(['last words']);
    } finally {
      await capture.close();
    }
  });

  /** Every package an entry's built graph imports (relative imports followed), by the file that imports it. */
  const importsOf = (dir: string, entries: string[]) => {
    const seen = new Set<string>();
    const found: Array<{ file: string; spec: string }> = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      for (const [, spec] of code.matchAll(/(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
        else found.push({ file, spec });
      }
    };
    for (const entry of entries) walk(join(pkgDir, dir, entry));
    return { files: seen.size, found };
  };

  it('keeps Node built-ins out of the browser-safe entries (., ./hono, ./next)', () => {
    const { files, found } = importsOf('dist/esm', ['index.js', 'hono.js', 'next/index.js']);
    expect(files).toBeGreaterThan(10);
    expect(found.filter(({ spec }) => spec.startsWith('node:') || ['async_hooks', 'http', 'fs', 'crypto'].includes(spec))).toEqual([]);
  });

  it('loads ./next without React (the boundary is ./next/react), from ESM and CommonJS', () => {
    for (const dir of ['dist/esm', 'dist/cjs']) expect(importsOf(dir, ['next/index.js']).found.map(({ spec }) => spec)).toEqual([]);
  });
});
