// The package as users load it: built into dist/ (when dist is missing or older than src), then
// required or imported by name through the "exports" map from a separate Node process.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const repoRoot = resolve(pkgDir, '../..');

function newestMtime(dir: string): number {
  return Math.max(...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newestMtime(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)));
}

/** Builds dist/ unless it is newer than every source file (asynchronously: a blocked test worker misses vitest's heartbeats). */
export async function ensureBuilt(): Promise<void> {
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
