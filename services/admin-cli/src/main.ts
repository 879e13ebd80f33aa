#!/usr/bin/env -S node --import tsx
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, runCommand } from './commands.ts';

// Options from flags, then the environment (read here, once), then the embedded
// process's token file under its data directory.
const argv = process.argv.slice(2);
const take = (name: string) => {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  return argv.splice(i, 2)[1];
};
const jsonIdx = argv.indexOf('--json');
if (jsonIdx >= 0) argv.splice(jsonIdx, 1);
const apiUrl = take('--api') ?? process.env.DEVTRAIL_API_URL ?? 'http://127.0.0.1:3000';
let token = take('--token') ?? process.env.DEVTRAIL_OPERATOR_TOKEN;
if (!token) {
  try {
    token = readFileSync(join(process.env.DEVTRAIL_DATA_DIR ?? '.data', 'operator-token'), 'utf8').trim();
  } catch {
    /* no embedded token file: runCommand explains */
  }
}

try {
  await runCommand({ apiUrl, token, json: jsonIdx >= 0, out: (l) => console.log(l) }, argv);
} catch (err) {
  console.error(err instanceof CliError ? err.message : err);
  process.exit(err instanceof CliError ? 1 : 2);
}
