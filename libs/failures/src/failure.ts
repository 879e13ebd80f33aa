// devtrail's one vocabulary for failures. Every backend adapter throws a Failure that
// says which backend failed and whether trying again later can help (`retryable`: an
// outage, a timeout, a full buffer) or never can (permanent: this data or this request
// is at fault). The consumer kit retries the first kind and dead-letters the second;
// http-answer.ts turns both into the HTTP answer every service gives.

export type Backend = 'message-log' | 'column-store' | 'relational-store';

export class Failure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly backend?: Backend,
    /** The backend's own error code (ClickHouse code, SQLSTATE), when it gave one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * Whether trying again later can help. An error that is not a Failure counts as
 * retryable: giving up on data is the one step that cannot be undone.
 */
export function isRetryable(err: unknown): boolean {
  return !(err instanceof Failure) || err.retryable;
}
