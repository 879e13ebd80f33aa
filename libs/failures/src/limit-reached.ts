import { Failure, type Backend } from './failure.ts';

// A request stopped by a bound of its own (docs/security.md, "Bounds"): a read that would scan
// too much or run too long. Not an outage: the client is told why, in these words. Retryable
// (the machine may be busier than the request is dear) is answered 503 with Retry-After;
// permanent (only a smaller request can pass) is a 400 (http-answer.ts, the one mapping).

export class LimitReached extends Failure {
  constructor(
    message: string,
    retryable: boolean,
    backend: Backend,
    code: string | undefined,
    /** What would pass, and what this request was, for the 400's issue. */
    readonly issue: { expected: string; received: string },
  ) {
    super(message, retryable, backend, code);
  }
}
