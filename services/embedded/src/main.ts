import { loadConfig, createLogger } from '@devtrail/config';
import { startEmbedded } from './embedded.ts';

// `npm start`: the whole pipeline in one process, data under DEVTRAIL_DATA_DIR (.data).
const config = loadConfig({ DEVTRAIL_MODE: 'embedded', ...process.env });
const logger = createLogger(config.logLevel, 'devtrail');
const dt = await startEmbedded(config, logger);

const base = dt.url.replace('0.0.0.0', '127.0.0.1');
const lines = [
  '',
  `devtrail is running (embedded mode) at ${base}`,
  `  dashboard:       ${base}/   (the first visit creates the owner account)`,
  `  data directory:  ${config.dataDir}`,
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

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: intake closed, flushing accepted events to the column store');
  await dt.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
