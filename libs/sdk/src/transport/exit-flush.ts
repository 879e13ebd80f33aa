// On Node, flush once when the event loop drains (beforeExit), so a short
// script that never calls close() still delivers its last batch. One shared
// listener for all clients; a transport is listed only while it has pending
// work and is flushed at most once per listing.

interface Flushable {
  flush(timeoutMs?: number): Promise<boolean>;
}

const EXIT_FLUSH_TIMEOUT_MS = 2_000;
const live = new Set<Flushable>();
let installed = false;

function onBeforeExit(): void {
  for (const transport of live) {
    live.delete(transport); // flushing schedules work, which fires beforeExit again: don't loop
    void transport.flush(EXIT_FLUSH_TIMEOUT_MS);
  }
}

type ProcessLike = { on?: (event: string, fn: () => void) => unknown };

export function flushOnExit(transport: Flushable): void {
  const proc = (globalThis as { process?: ProcessLike }).process;
  if (typeof proc?.on !== 'function') return;
  live.add(transport);
  if (!installed) {
    proc.on('beforeExit', onBeforeExit);
    installed = true;
  }
}

export function cancelFlushOnExit(transport: Flushable): void {
  live.delete(transport);
}
