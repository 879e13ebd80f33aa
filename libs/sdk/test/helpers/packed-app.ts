// An app outside the repository with the SDK as a user gets it (docs/sdk.md#install): `npm pack`
// in libs/sdk (its prepack step builds dist/), the tarball installed into an empty folder.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { aloneWithDist, ensureBuiltUnlocked, pkgDir } from './built-package.js';

const run = promisify(execFile);

export interface PackedApp {
  dir: string;
  /** The script-tag build as installed in the app. */
  browserBundle: string;
  remove(): void;
}

export async function packedApp(name: string): Promise<PackedApp> {
  const dir = mkdtempSync(join(tmpdir(), `dt-${name}-`));
  // Built, then packed as it is (no prepack build), with no other suite's build in between.
  const { stdout } = await aloneWithDist(async () => {
    await ensureBuiltUnlocked();
    return run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: pkgDir, maxBuffer: 16 * 1024 * 1024 });
  });
  const tarball = join(dir, stdout.trim().split('\n').pop()!);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'outside-app', private: true, type: 'module' }));
  await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir });
  return {
    dir,
    browserBundle: join(dir, 'node_modules/@devtrail/sdk/dist/browser/devtrail.min.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
