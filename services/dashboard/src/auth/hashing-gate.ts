import { httpError } from '@devtrail/http';

// Password hashing is the one expensive thing a stranger can ask for (a login, a setup):
// each scrypt takes 128 MiB and a few hundred milliseconds of a libuv thread. At most
// MAX_RUNNING run at once per process and MAX_WAITING wait; past that the request is 503
// with Retry-After, so no burst of logins can take every thread or the memory
// (docs/security.md#logins).

export const MAX_RUNNING = 2;
export const MAX_WAITING = 16;
const RETRY_AFTER_SECONDS = 1;

let running = 0;
const waiting: Array<() => void> = [];

/** Runs fn when a slot is free; 503 at once when too many wait already. */
export async function hashingSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) throw httpError(503, 'Too many logins at once; retry in a moment', { 'retry-after': String(RETRY_AFTER_SECONDS) });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next)
      next(); // the slot passes straight to the next in line
    else running--;
  }
}
