// Leveled logger. Entries go to the client's log batcher; trace and request
// ids come from the bindings first, then from the active span/request.
import type { LogLevel, Metadata } from './types.js';

export interface LoggerBindings {
  /** Logger context name, sent as the entry's `context`. */
  context?: string;
  /** Merged into every entry's metadata. */
  metadata?: Metadata;
  traceId?: string;
  spanId?: string;
  requestId?: string;
}

export type LogSink = (level: LogLevel, message: string, metadata: Metadata | undefined, bindings: LoggerBindings) => void;

export class Logger {
  constructor(
    private readonly sink: LogSink,
    readonly bindings: LoggerBindings = {},
  ) {}

  debug(message: string, metadata?: Metadata | Error): void {
    this.log('debug', message, metadata);
  }

  info(message: string, metadata?: Metadata | Error): void {
    this.log('info', message, metadata);
  }

  warn(message: string, metadata?: Metadata | Error): void {
    this.log('warn', message, metadata);
  }

  error(message: string, metadata?: Metadata | Error): void {
    this.log('error', message, metadata);
  }

  log(level: LogLevel, message: string, metadata?: Metadata | Error): void {
    const meta = metadata instanceof Error ? { error: metadata } : metadata;
    try {
      this.sink(level, message, meta, this.bindings);
    } catch {
      // A logging call must never break the code that logs.
    }
  }

  /**
   * A logger that adds bindings. A string is a context name; nested names join
   * with a dot (`api` then `db` gives `api.db`). Metadata merges, child wins.
   */
  child(bindings: string | LoggerBindings): Logger {
    const add: LoggerBindings = typeof bindings === 'string' ? { context: bindings } : definedOnly(bindings);
    const parent = this.bindings;
    const context = add.context && parent.context ? `${parent.context}.${add.context}` : (add.context ?? parent.context);
    return new Logger(this.sink, {
      ...parent,
      ...add,
      context,
      metadata: parent.metadata || add.metadata ? { ...parent.metadata, ...add.metadata } : undefined,
    });
  }
}

function definedOnly(bindings: LoggerBindings): LoggerBindings {
  return Object.fromEntries(Object.entries(bindings).filter(([, v]) => v !== undefined)) as LoggerBindings;
}
