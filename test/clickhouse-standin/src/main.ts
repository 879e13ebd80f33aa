import type { EngineChoice } from './engine.ts';
import { startStandin } from './standin.ts';

// Configuration is read once, at startup.
const port = Number(process.env.CLICKHOUSE_STANDIN_PORT ?? 18123);
const host = process.env.CLICKHOUSE_STANDIN_HOST ?? '127.0.0.1';
// The data folder: the first argument (deploy/scripts/clickhouse.sh names it there, which tells
// this stand-in's process from another's), or the environment.
const dataDir = process.argv[2] ?? process.env.CLICKHOUSE_STANDIN_DATA ?? '.devtrail/clickhouse';
// chdb (today's engine, in-process) or floor (ClickHouse 24.8.4.1 run by the floor venv's Python).
const engineName = process.env.CLICKHOUSE_STANDIN_ENGINE ?? 'chdb';
const python = process.env.CLICKHOUSE_STANDIN_PYTHON ?? '.devtrail/clickhouse-floor-venv/bin/python';

const fail = (message: string) => {
  process.stderr.write(`clickhouse-standin: ${message}\n`);
  process.exit(1);
};
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid CLICKHOUSE_STANDIN_PORT ${process.env.CLICKHOUSE_STANDIN_PORT}`);
if (engineName !== 'chdb' && engineName !== 'floor') fail(`CLICKHOUSE_STANDIN_ENGINE is chdb or floor, not '${engineName}'`);
const engine: EngineChoice = engineName === 'floor' ? { name: 'floor', python } : { name: 'chdb' };

const standin = await startStandin({ port, host, dataDir, engine });
process.stderr.write(`clickhouse-standin: ClickHouse HTTP interface on ${standin.url} (${engine.name} engine, ClickHouse ${standin.version}, data in ${dataDir})\n`);

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`clickhouse-standin: ${signal}, shutting down\n`);
  standin.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`clickhouse-standin: shutdown failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
