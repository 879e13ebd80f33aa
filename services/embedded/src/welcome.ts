import { join } from 'node:path';
import type { Logger } from '@devtrail/config';
import { SETUP_CODE_FILE } from '@devtrail/dashboard';
import type { Embedded } from './embedded.ts';
import { OPERATOR_TOKEN_FILE } from './operator-token.ts';

/**
 * What `npm start` tells its user once it runs. Secrets (the operator token, the setup code
 * that claims the dashboard, the first API key) are shown on a terminal only, as a banner to
 * read: never in a log line, which log collectors keep and ship. Anywhere else (a service
 * manager, a container, a test harness) it is one JSON line, like every other line the
 * process writes, saying where things are: the token and the code are in private files of
 * the data directory, and a key comes from `devtrail key revoke` or the dashboard. The line
 * is written whatever LOG_LEVEL says.
 */
export function welcome(dt: Pick<Embedded, 'url' | 'operatorToken' | 'firstProject' | 'setupCode'>, dataDir: string, logger: Logger, terminal: boolean): void {
  const base = dt.url.replace('0.0.0.0', '127.0.0.1');
  if (!terminal) {
    const first = dt.firstProject;
    logger.child({}, { level: 'info' }).info(
      {
        url: base,
        data_dir: dataDir,
        operator_token_file: join(dataDir, OPERATOR_TOKEN_FILE),
        ...(dt.setupCode ? { setup_code_file: dt.setupCode.file ?? join(dataDir, SETUP_CODE_FILE) } : {}),
        ...(first ? { project: { id: first.id, name: first.name } } : {}),
        secrets: 'shown on a terminal only; the operator token and setup code are in the files named here; an API key: npm run devtrail -- key revoke <project id>',
      },
      `devtrail is running (embedded mode) at ${base}`,
    );
    return;
  }
  const lines = [
    '',
    `devtrail is running (embedded mode) at ${base}`,
    `  dashboard:       ${base}/`,
    `  data directory:  ${dataDir}   (readable by you only)`,
    `  operator token:  ${dt.operatorToken}   (admin and read APIs, CLI: DEVTRAIL_OPERATOR_TOKEN)`,
  ];
  if (dt.setupCode) lines.push(`  setup code:      ${dt.setupCode.code}   (claims the owner account at ${base}/setup; valid 24 h)`);
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
