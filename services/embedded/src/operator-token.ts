import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The configured token, else the one kept in the data directory, else a new one saved there (mode 600). */
export function operatorTokenFor(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = join(dataDir, 'operator-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = `dto_${randomBytes(24).toString('hex')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
