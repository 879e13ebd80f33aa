import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Fields that carry a secret, wherever a log line might hold them (at the top level or one
 * level down, as in `{ req: { headers } }` or `{ project: { drain_secret } }`): their value
 * is replaced before the line is written. Secrets are never logged on purpose (the operator
 * token and the first API key go to a terminal only, services/embedded/src/welcome.ts); this
 * is the net under that rule.
 */
export const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-csrf-token',
  'x-vercel-signature',
  'password',
  'current_password',
  'new_password',
  'passwordHash',
  'password_hash',
  'token',
  'secret',
  'api_key',
  'apiKey',
  'operator_token',
  'operatorToken',
  'setup_code',
  'setupCode',
  'drain_secret',
  'drainSecret',
  'csrf_token',
  'csrfToken',
  'sasl',
];

const pathsOf = (field: string) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
  const dot = key.startsWith('[') ? '' : '.';
  return [key, `*${dot}${key}`, `*.headers${dot}${key}`];
};

export const REDACTED = '[redacted]';

// Structured JSON logs on stdout (or `destination`); the service name tags every line.
export function createLogger(level: string, service: string, destination?: { write(line: string): void }): Logger {
  const options = { level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: SECRET_FIELDS.flatMap(pathsOf), censor: REDACTED } };
  return destination ? pino(options, destination) : pino(options);
}
