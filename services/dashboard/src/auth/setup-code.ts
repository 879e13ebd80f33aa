import { randomInt } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '@devtrail/config';
import type { UsersRepo } from '@devtrail/relational-store';

// Claiming a fresh install: the owner account can only be created with a one-time setup code,
// or with the operator token. While no owner exists, every start of a process that serves the
// dashboard makes a new code, keeps its SHA-256 hash in the relational store (so any
// dashboard replica accepts it), writes it to <DEVTRAIL_DATA_DIR>/setup-code (0600) and shows
// it on its terminal, never in a log line. The code is valid for 24 hours; creating the owner
// ends every code (docs/security.md#claiming-a-fresh-install).

export const SETUP_CODE_FILE = 'setup-code';
export const SETUP_CODE_TTL_MS = 24 * 3600 * 1000;
// Crockford's base32: no I, L, O or U to misread. 16 characters: 80 bits.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newSetupCode(): string {
  const chars = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** What a person typed, in the code's canonical form (case, spaces and dashes do not matter). */
export function canonicalSetupCode(typed: string): string {
  const chars = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  return chars.match(/.{1,4}/g)?.join('-') ?? '';
}

export interface IssuedSetupCode {
  code: string;
  /** Where it was written, or null when the data directory could not be written. */
  file: string | null;
}

/** A new code when no owner exists yet, else null (and any old code file is removed). */
export async function issueSetupCode(users: UsersRepo, dataDir: string, onWriteError: (err: Error) => void): Promise<IssuedSetupCode | null> {
  const file = join(dataDir, SETUP_CODE_FILE);
  if (await users.ownerExists()) {
    forgetSetupCode(dataDir);
    return null;
  }
  const code = newSetupCode();
  await users.addSetupCode(code, new Date(Date.now() + SETUP_CODE_TTL_MS));
  try {
    writePrivateFile(file, `${code}\n`);
    return { code, file };
  } catch (err) {
    onWriteError(err as Error);
    return { code, file: null };
  }
}

export function forgetSetupCode(dataDir: string): void {
  rmSync(join(dataDir, SETUP_CODE_FILE), { force: true });
}
