// Reports errors nobody caught: window 'error' events and unhandled promise
// rejections. A client in a browser installs it itself (captureUncaught);
// it is exported for other targets (a worker's global scope). Returns a
// function that removes the listeners again.
import type { CaptureErrorOptions } from '../types.js';

/** The client's one method used here (a structural type: the client imports this file). */
interface ErrorCapturer {
  captureError(error: unknown, options?: CaptureErrorOptions): void;
}

type Listener = (event: Event) => void;
interface EventTargetLike {
  addEventListener(type: string, listener: Listener): void;
  removeEventListener(type: string, listener: Listener): void;
}

/** The hosts each client listens on already: a second install (the client does it itself in browsers) is a no-op, never a double report. */
const installed = new WeakMap<ErrorCapturer, WeakSet<EventTargetLike>>();

export function installGlobalErrorHandlers(client: ErrorCapturer, target?: EventTargetLike): () => void {
  const host = target ?? (globalThis as { window?: EventTargetLike }).window;
  if (!host || typeof host.addEventListener !== 'function') return () => {};
  const hosts = installed.get(client) ?? installed.set(client, new WeakSet()).get(client)!;
  if (hosts.has(host)) return () => {};
  hosts.add(host);

  const onError: Listener = (event) => {
    const e = event as ErrorEvent;
    // Cross-origin scripts give only "Script error." and no error object.
    client.captureError(e.error ?? e.message ?? 'Unknown error', {
      severity: 'high',
      context: { source: 'window.onerror', handled: false, filename: e.filename, lineno: e.lineno, colno: e.colno },
    });
  };
  const onRejection: Listener = (event) => {
    client.captureError((event as PromiseRejectionEvent).reason, {
      severity: 'high',
      context: { source: 'unhandledrejection', handled: false },
    });
  };
  host.addEventListener('error', onError);
  host.addEventListener('unhandledrejection', onRejection);
  return () => {
    hosts.delete(host);
    host.removeEventListener('error', onError);
    host.removeEventListener('unhandledrejection', onRejection);
  };
}
