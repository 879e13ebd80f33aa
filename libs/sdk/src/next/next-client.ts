// The server-side client the Next.js helpers share. Next re-evaluates
// modules (dev reloads, separate route bundles), so it lives on globalThis.
import { DevtrailClient } from '../client.js';
import { installAsyncContext, type AsyncLocalStorageClass } from '../context/context-manager.js';
import type { ClientOptions } from '../options.js';

const KEY = Symbol.for('devtrail.sdk.next.client');
type Holder = { [KEY]?: DevtrailClient; AsyncLocalStorage?: AsyncLocalStorageClass };

/**
 * Next.js exposes AsyncLocalStorage on globalThis in both its Node and edge
 * runtimes; using it avoids importing node:async_hooks from this entry, which
 * would break edge and browser bundles.
 */
export function installNextAsyncContext(): void {
  installAsyncContext((globalThis as Holder).AsyncLocalStorage);
}

export function setNextClient(client: DevtrailClient): DevtrailClient {
  (globalThis as Holder)[KEY] = client;
  return client;
}

/** The shared client, created from options or DEVTRAIL_* env vars on first use. */
export function getNextClient(options?: ClientOptions): DevtrailClient {
  installNextAsyncContext();
  return (globalThis as Holder)[KEY] ?? setNextClient(new DevtrailClient(options));
}

/** Serverless functions may freeze right after responding: deliver first. */
export const SERVERLESS_FLUSH_TIMEOUT_MS = 2_000;

export async function flushIfServerless(client: DevtrailClient, force?: boolean): Promise<void> {
  if (force ?? client.options.serverless) await client.flush(SERVERLESS_FLUSH_TIMEOUT_MS);
}
