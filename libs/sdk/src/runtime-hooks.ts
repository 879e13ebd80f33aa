// Hooks a runtime-specific entry installs for the browser-safe core (the client imports no
// Node built-ins): on Node, node.ts attaches every client to the process's end
// (node/process-hooks.ts). Kept on globalThis so the ESM and CJS copies agree.
import type { RequestStore } from './transport/request-store.js';

export interface RuntimeHooks {
  /** Attaches a client (a DevtrailClient: the client imports this file) to the process's end; returns how to detach it. */
  attach(client: object): () => void;
  /** The offline store of error reports in a directory (node/spool.ts). */
  spool?(dir: string, maxBytes: number): RequestStore;
}

const KEY = Symbol.for('devtrail.sdk.runtime-hooks');
type Holder = { [KEY]?: RuntimeHooks };

export function setRuntimeHooks(hooks: RuntimeHooks): void {
  (globalThis as Holder)[KEY] = hooks;
}

export function runtimeHooks(): RuntimeHooks | undefined {
  return (globalThis as Holder)[KEY];
}
