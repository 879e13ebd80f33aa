import { startStandin } from './standin.ts';

// Configuration is read once, at startup.
const port = Number(process.env.CLICKHOUSE_STANDIN_PORT ?? 18123);
const host = process.env.CLICKHOUSE_STANDIN_HOST ?? '127.0.0.1';
// The data folder: the first argument (deploy/scripts/clickhouse.sh names it there), or the environment.
const dataDir = process.argv[2] ?? process.env.CLICKHOUSE_STANDIN_DATA ?? '.devtrail/clickhouse';

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`clickhouse-standin: invalid CLICKHOUSE_STANDIN_PORT ${process.env.CLICKHOUSE_STANDIN_PORT}\n`);
  process.exit(1);
}

const standin = await startStandin({ port, host, dataDir });
process.stderr.write(`clickhouse-standin: ClickHouse HTTP interface on ${standin.url} (chDB engine, data in ${dataDir})\n`);

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
