import { loadConfig, type Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';

// Every line a service writes is JSON with a level. Node itself writes plain text to stderr:
// its warnings (deprecations; kafkajs's negative timers on Node >= 23) and the stack of an error
// nobody caught, which ends the process. Both go through the service's logger instead.

/**
 * Warnings that are known and harmless: logged at debug. kafkajs 2.2.4 (its last release)
 * arms its request queue's timer with a negative delay when nothing is pending; Node runs it
 * after 1 ms, which is what kafkajs means.
 */
const HARMLESS_WARNINGS = new Set(['TimeoutNegativeWarning']);

/** Routes Node's warnings and fatal errors through the logger (once per process). */
export function routeProcessOutput(logger: Logger): void {
  // Node's own printer is a 'warning' listener; without it, only ours writes.
  process.removeAllListeners('warning');
  process.on('warning', (w: Error & { code?: string }) => {
    logger[HARMLESS_WARNINGS.has(w.name) ? 'debug' : 'warn']({ warning: w.name, code: w.code }, w.message);
  });
  // An uncaught exception, or a rejection nobody handled (Node's default mode turns those into
  // uncaught exceptions, a failed top-level await in main.ts included): one fatal line, exit 1
  // as Node would. pino writes stdout synchronously, so the line is out before the exit.
  process.on('uncaughtException', (err, origin) => {
    logger.fatal({ err, origin }, 'stopping on an uncaught error');
    process.exit(1);
  });
}

/**
 * A service's start: config parsed once, its logger, Node's output routed through it. Invalid
 * configuration is one fatal JSON line and exit code 1 (there is no configured level yet: info).
 */
export function startService(service: string, env: Record<string, string | undefined>): { config: Config; logger: Logger } {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    createLogger('info', service).fatal({ err: (err as Error).message }, 'cannot start: invalid configuration');
    process.exit(1);
  }
  const logger = createLogger(config.logLevel, service);
  routeProcessOutput(logger);
  return { config, logger };
}
