export { loadConfig, ConfigError, type Config } from './config.ts';
export { createLogger, type Logger } from './logger.ts';
export { routeProcessOutput, startService } from './process-output.ts';
