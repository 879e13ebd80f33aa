import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Files that hold secrets (the embedded data directory: PGlite's and chdb's files, the
// operator token, the setup code) are readable by their owner only: directories 0700,
// files 0600. Creation modes are masked by the process's umask, so each is set explicitly.

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the directory (and its parents) if missing, and makes it 0700 either way. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Writes a file readable by its owner only, in a private directory. */
export function writePrivateFile(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  writeFileSync(path, text, { mode: PRIVATE_FILE_MODE });
  chmodSync(path, PRIVATE_FILE_MODE); // an existing file keeps its mode through writeFileSync
}

/** Makes every directory under dir 0700 and every file 0600 (what an older version left readable). Symlinks are not followed. */
export function makeTreePrivate(dir: string): void {
  ensurePrivateDir(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeTreePrivate(path);
    else if (entry.isFile() && (lstatSync(path).mode & 0o077) !== 0) chmodSync(path, PRIVATE_FILE_MODE);
  }
}
