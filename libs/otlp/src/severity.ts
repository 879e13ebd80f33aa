import type { logLevels } from '@devtrail/kinds';

// OTLP severity -> devtrail's four levels. SeverityNumber ranges come from the OTel
// logs data model (TRACE 1-4, DEBUG 5-8, INFO 9-12, WARN 13-16, ERROR 17-20, FATAL 21-24);
// without a number the text decides; without either, info.

type Level = (typeof logLevels)[number];

export function levelOfNumber(n: number): Level | undefined {
  if (n >= 1 && n <= 8) return 'debug';
  if (n >= 9 && n <= 12) return 'info';
  if (n >= 13 && n <= 16) return 'warn';
  if (n >= 17 && n <= 24) return 'error';
  return undefined;
}

const TEXT_LEVELS: Record<string, Level> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  information: 'info',
  notice: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  err: 'error',
  fatal: 'error',
  critical: 'error',
  crit: 'error',
  alert: 'error',
  emergency: 'error',
  emerg: 'error',
};

export function levelOfText(text: string): Level | undefined {
  // "INFO2", "Warn" and friends: the data model lets the text carry a short-name suffix digit.
  return TEXT_LEVELS[
    text
      .trim()
      .toLowerCase()
      .replace(/[1-4]$/, '')
  ];
}

export function logLevel(severityNumber: number | null | undefined, severityText: string | null | undefined): Level {
  return (severityNumber ? levelOfNumber(severityNumber) : undefined) ?? (severityText ? levelOfText(severityText) : undefined) ?? 'info';
}
