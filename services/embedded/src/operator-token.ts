import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '@devtrail/config';

export const OPERATOR_TOKEN_FILE = 'operator-token';

/** The configured token, else the one kept in the data directory, else a new one saved there (0600). */
export function operatorTokenFor(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = join(dataDir, OPERATOR_TOKEN_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = `dto_${randomBytes(24).toString('hex')}`;
  writePrivateFile(file, `${token}\n`);
  return token;
}
