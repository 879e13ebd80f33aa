import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { freePort, ROOT } from './processes.ts';

// The Next.js test app (test/fixtures/next-app): its packages are installed into
// .devtrail/next-app by `make install` (deploy/scripts/next-fixture.sh); here its sources
// and the built @devtrail/sdk are copied there, `next build` runs only when any of them
// changed (the .next folder is kept between runs), and `next start` serves it.

const SRC = join(ROOT, 'test/fixtures/next-app');
const SDK = join(ROOT, 'libs/sdk');
export const NEXT_APP_DIR = join(ROOT, '.devtrail/next-app');
const SOURCES = ['app', 'instrumentation.ts', 'next.config.mjs', 'tsconfig.json'];
const NEXT_BIN = join(NEXT_APP_DIR, 'node_modules/next/dist/bin/next');

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((e) => files(join(path, e)));
}

function newestMtime(dir: string): number {
  return Math.max(...files(dir).map((f) => statSync(f).mtimeMs));
}

/** Runs a command to completion without blocking the event loop (the test runner's RPC needs it). */
function run(command: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const c = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    c.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
    c.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
    const timer = setTimeout(() => c.kill('SIGKILL'), timeoutMs);
    c.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${[command, ...args].join(' ')} failed (${code ?? signal}):\n${out}`));
    });
  });
}

/** Builds libs/sdk's dist when missing or older than its sources (as the SDK's own tests do). */
async function ensureSdkBuilt(): Promise<void> {
  const marker = join(SDK, 'dist/cjs/package.json');
  if (!existsSync(marker) || newestMtime(join(SDK, 'src')) > statSync(marker).mtimeMs) {
    await run('npm', ['run', 'build', '-w', '@devtrail/sdk'], ROOT, {}, 300_000);
  }
}

function hashOf(paths: string[], base: string): string {
  const h = createHash('sha256');
  for (const f of paths.flatMap(files).sort()) h.update(relative(base, f)).update(readFileSync(f));
  return h.digest('hex');
}

export interface BuiltApp {
  /** Whether this call ran `next build` (false: the cached .next was current). */
  built: boolean;
  buildMs: number;
}

/** Copies the app and the SDK into .devtrail/next-app and builds unless the cached build is current. */
export async function prepareNextApp(): Promise<BuiltApp> {
  if (!existsSync(NEXT_BIN)) throw new Error('Next.js is not installed in .devtrail/next-app: run `make install` (deploy/scripts/next-fixture.sh install)');
  await ensureSdkBuilt();
  const hash = hashOf([...SOURCES.map((s) => join(SRC, s)), join(SRC, 'package-lock.json'), join(SDK, 'dist'), join(SDK, 'package.json')], ROOT);
  const stamp = join(NEXT_APP_DIR, '.build-hash');
  const current = existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(join(NEXT_APP_DIR, '.next/BUILD_ID'));
  if (current) return { built: false, buildMs: 0 };
  rmSync(join(NEXT_APP_DIR, 'app'), { recursive: true, force: true });
  for (const s of SOURCES) cpSync(join(SRC, s), join(NEXT_APP_DIR, s), { recursive: true });
  // The SDK as npm would install its published files (package.json + dist).
  const sdkDest = join(NEXT_APP_DIR, 'node_modules/@devtrail/sdk');
  rmSync(sdkDest, { recursive: true, force: true });
  mkdirSync(sdkDest, { recursive: true });
  cpSync(join(SDK, 'package.json'), join(sdkDest, 'package.json'));
  cpSync(join(SDK, 'dist'), join(sdkDest, 'dist'), { recursive: true });
  const t0 = Date.now();
  await run(process.execPath, [NEXT_BIN, 'build'], NEXT_APP_DIR, { NEXT_TELEMETRY_DISABLED: '1' }, 600_000);
  writeFileSync(stamp, hash);
  return { built: true, buildMs: Date.now() - t0 };
}

export interface NextServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** `next start` on a free loopback port with the given environment; resolves once it serves /. */
export async function startNextApp(env: Record<string, string>): Promise<NextServer> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: NEXT_APP_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`next start not serving after 60 s:\n${out}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
