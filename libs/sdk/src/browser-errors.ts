// Reports errors nobody caught: window 'error' events and unhandled promise
// rejections. Returns a function that removes the listeners again.
import type { DevtrailClient } from './client.js';

type Listener = (event: Event) => void;
interface EventTargetLike {
  addEventListener(type: string, listener: Listener): void;
  removeEventListener(type: string, listener: Listener): void;
}

export function installGlobalErrorHandlers(client: DevtrailClient, target?: EventTargetLike): () => void {
  const host = target ?? (globalThis as { window?: EventTargetLike }).window;
  if (!host || typeof host.addEventListener !== 'function') return () => {};

  const onError: Listener = (event) => {
    const e = event as ErrorEvent;
    // Cross-origin scripts give only "Script error." and no error object.
    client.captureError(e.error ?? e.message ?? 'Unknown error', {
      severity: 'high',
      context: { source: 'window.onerror', filename: e.filename, lineno: e.lineno, colno: e.colno },
    });
  };
  const onRejection: Listener = (event) => {
    client.captureError((event as PromiseRejectionEvent).reason, {
      severity: 'high',
      context: { source: 'unhandledrejection' },
    });
  };
  host.addEventListener('error', onError);
  host.addEventListener('unhandledrejection', onRejection);
  return () => {
    host.removeEventListener('error', onError);
    host.removeEventListener('unhandledrejection', onRejection);
  };
}
