// The package as users load it: built into dist/ (when dist is missing or older than src), then
// required or imported by name through the "exports" map from a separate Node process.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const repoRoot = resolve(pkgDir, '../..');

function newestMtime(dir: string): number {
  return Math.max(...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newestMtime(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)));
}

/** A lock a crashed worker left is taken over after this long (a build takes seconds). */
const STALE_LOCK_MS = 5 * 60_000;

/**
 * Runs `fn` alone among the suites running side by side: a build empties dist/ before it writes
 * it, so a build or a pack beside another one packs or imports a half-written dist/.
 */
export async function aloneWithDist<T>(fn: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), `devtrail-sdk-dist-${Buffer.from(pkgDir).toString('hex').slice(-32)}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds dist/ unless it is newer than every source file (asynchronously: a blocked test worker misses vitest's heartbeats). */
export async function ensureBuilt(): Promise<void> {
  await aloneWithDist(ensureBuiltUnlocked);
}

/** ensureBuilt for a caller that holds the lock already (aloneWithDist). */
export async function ensureBuiltUnlocked(): Promise<void> {
  const marker = join(pkgDir, 'dist/cjs/package.json');
  const stale = !existsSync(join(pkgDir, 'dist/esm/index.js')) || !existsSync(marker) || newestMtime(join(pkgDir, 'src')) > statSync(marker).mtimeMs;
  if (!stale) return;
  await new Promise<void>((res, rej) =>
    execFile('npm', ['run', 'build', '-w', '@devtrail/sdk'], { cwd: repoRoot }, (err, _out, stderr) => (err ? rej(new Error(`build failed: ${stderr}`)) : res())),
  );
}

export interface ScriptRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a CommonJS script with `node -e` from the repository root (so `require('@devtrail/sdk')` is the build). */
export function runScript(script: string, env: Record<string, string> = {}, args: string[] = [], timeoutMs = 20_000): Promise<ScriptRun> {
  return new Promise((res) => {
    execFile(process.execPath, [...args, '-e', script], { cwd: repoRoot, env: { ...process.env, ...env }, timeout: timeoutMs }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number | string; signal?: NodeJS.Signals }) | null;
      res({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}
