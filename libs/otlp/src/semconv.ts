// OpenTelemetry names more than one kind reads (libs/kinds/src/<kind>/otlp.ts).

/** A span event recording an exception (exception semantic conventions). */
export const EXCEPTION_EVENT = 'exception';
export const EXCEPTION = { type: 'exception.type', message: 'exception.message', stacktrace: 'exception.stacktrace' } as const;
/** Status.code of a span that failed. */
export const STATUS_CODE_ERROR = 2;
