#!/usr/bin/env -S node --import tsx
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, createLogger, loadConfig } from '@devtrail/config';
import { Failure } from '@devtrail/failures';
import { clickhouseSchema } from './clickhouse-schema.ts';
import { CliError, runCommand } from './commands.ts';
import { defaultApiUrl } from './api-url.ts';
import { ReplayError } from './replay/range.ts';
import { runReplay } from './replay/replay-command.ts';
import { runRedrive } from './redrive-command.ts';
import { runEmpty } from './replay/empty-range.ts';
import { RedriveError } from '@devtrail/consumer-kit';

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
const apiUrl = take('--api') ?? (process.env.DEVTRAIL_API_URL || defaultApiUrl(process.env));
// An upload (a build pipeline) takes its upload token before an operator token.
let token = take('--token') ?? (argv[0] === 'sourcemaps' ? process.env.DEVTRAIL_UPLOAD_TOKEN : undefined) ?? process.env.DEVTRAIL_OPERATOR_TOKEN;
if (!token) {
  try {
    token = readFileSync(join(process.env.DEVTRAIL_DATA_DIR ?? '.data', 'operator-token'), 'utf8').trim();
  } catch {
    /* no embedded token file: runCommand explains */
  }
}

const json = jsonIdx >= 0;
const out = (l: string) => console.log(l);
try {
  if (argv[0] === 'replay') {
    // Replay talks to Kafka and ClickHouse itself (replay-command.ts), configured as the services are.
    const config = loadConfig(process.env);
    await runReplay(config, createLogger('silent', 'devtrail-cli'), argv.slice(1), { out, err: (l) => console.error(l), json });
  } else if (argv[0] === 'empty') {
    await runEmpty(loadConfig(process.env), createLogger('silent', 'devtrail-cli'), argv.slice(1), { out, err: (l) => console.error(l), json });
  } else if (argv[0] === 'redrive') {
    await runRedrive(loadConfig(process.env), createLogger('silent', 'devtrail-cli'), argv.slice(1), { out, err: (l) => console.error(l), json });
  } else if (argv[0] === 'clickhouse-schema') {
    // The DDL only: nothing is connected to.
    out(clickhouseSchema(loadConfig(process.env), take('--cluster')));
  } else await runCommand({ apiUrl, token, json, out }, argv);
} catch (err) {
  const expected = err instanceof CliError || err instanceof ReplayError || err instanceof RedriveError || err instanceof ConfigError || err instanceof Failure;
  console.error(expected ? (err as Error).message : err);
  process.exit(expected ? 1 : 2);
}
