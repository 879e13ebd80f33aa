import type { Logger } from '@devtrail/config';
import type { Embedded } from './embedded.ts';

/**
 * What `npm start` tells its user once it runs: where, the operator token, and on the first
 * start the default project's API key (shown once). On a terminal, a banner to read; anywhere
 * else (a log collector, a test harness) one JSON line, like every other line the process
 * writes. Either way it is written whatever LOG_LEVEL says: the key is not shown again.
 */
export function welcome(dt: Pick<Embedded, 'url' | 'operatorToken' | 'firstProject'>, dataDir: string, logger: Logger, terminal: boolean): void {
  const base = dt.url.replace('0.0.0.0', '127.0.0.1');
  if (!terminal) {
    const first = dt.firstProject;
    logger.child({}, { level: 'info' }).info(
      {
        url: base,
        data_dir: dataDir,
        operator_token: dt.operatorToken,
        ...(first ? { project: { id: first.id, name: first.name }, api_key: first.apiKey } : {}),
      },
      `devtrail is running (embedded mode) at ${base}`,
    );
    return;
  }
  const lines = [
    '',
    `devtrail is running (embedded mode) at ${base}`,
    `  dashboard:       ${base}/   (the first visit creates the owner account)`,
    `  data directory:  ${dataDir}`,
    `  operator token:  ${dt.operatorToken}   (admin and read APIs, CLI: DEVTRAIL_OPERATOR_TOKEN)`,
  ];
  if (dt.firstProject) {
    lines.push(
      `  project "${dt.firstProject.name}" (${dt.firstProject.id})`,
      `  API key (shown once, store it now): ${dt.firstProject.apiKey}`,
      '',
      '  try it:',
      `  curl -s -X POST ${base}/ingest/logs -H 'Authorization: Bearer ${dt.firstProject.apiKey}' -H 'Content-Type: application/json' \\`,
      `    -d '{"service":"demo","logs":[{"level":"info","message":"hello devtrail"}]}'`,
      `  curl -s '${base}/api/projects/${dt.firstProject.id}/logs' -H 'Authorization: Bearer ${dt.operatorToken}'`,
    );
  } else {
    lines.push('  projects: npm run devtrail -- project list   (keys were shown on first start; revoke to get a new one)');
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
