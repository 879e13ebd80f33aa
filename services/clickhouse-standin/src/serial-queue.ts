// Runs tasks one at a time in arrival order: the chdb connection executes one
// statement at a time, and per-request state (USE, SET) must not interleave.
// Bounded, so an overloaded stand-in refuses work instead of buffering forever.
export class QueueFullError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} requests waiting`);
  }
}

export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private running = 0;
  private closed = false;

  constructor(private readonly maxWaiting: number) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the stand-in is shutting down'));
    if (this.waiting >= this.maxWaiting) return Promise.reject(new QueueFullError(this.maxWaiting));
    this.waiting++;
    const result = this.tail.then(async () => {
      this.waiting--;
      this.running++;
      try {
        return await task();
      } finally {
        this.running--;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  // Refuses new tasks and resolves once the queued ones have finished.
  async close(): Promise<void> {
    this.closed = true;
    while (this.waiting + this.running > 0) await this.tail;
  }
}
