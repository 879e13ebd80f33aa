import { startService } from '@devtrail/config';
import { startEmbedded } from './embedded.ts';
import { welcome } from './welcome.ts';

// `npm start`: the whole pipeline in one process, data under DEVTRAIL_DATA_DIR (.data).
// Everything it writes is private to its user (0700 directories, 0600 files), the files
// PGlite and chdb create at any time included.
process.umask(0o077);
const { config, logger } = startService('devtrail', { DEVTRAIL_MODE: 'embedded', ...process.env });
const dt = await startEmbedded(config, logger);

welcome(dt, config.dataDir, logger, process.stdout.isTTY === true);

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
