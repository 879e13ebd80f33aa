import { pino, type Logger } from 'pino';

export type { Logger };

// Structured JSON logs on stdout; the service name tags every line.
export function createLogger(level: string, service: string): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
