// Which span and request scope are "current". Browsers get a synchronous
// stack (context survives until the callback returns, not across awaits);
// Node swaps in AsyncLocalStorage so context follows async continuations.
// The manager lives on globalThis so the ESM and CJS copies of the SDK, if
// both get loaded, agree on it.
import type { Scope } from '../scope.js';
import type { Span } from '../span.js';

export interface ActiveContext {
  span?: Span;
  requestId?: string;
  /** Request-level user, tags and breadcrumbs; absent outside a request. */
  scope?: Scope;
  /** The SDK's own delivery: its requests are not traced (they would trace themselves without end). */
  internal?: boolean;
}

export interface ContextManager {
  /** True when context survives awaits. */
  readonly async: boolean;
  active(): ActiveContext | undefined;
  with<T>(ctx: ActiveContext, fn: () => T): T;
}

class SyncContextManager implements ContextManager {
  readonly async = false;
  private current: ActiveContext | undefined;

  active(): ActiveContext | undefined {
    return this.current;
  }

  with<T>(ctx: ActiveContext, fn: () => T): T {
    const previous = this.current;
    this.current = ctx;
    try {
      return fn();
    } finally {
      this.current = previous;
    }
  }
}

/** The slice of AsyncLocalStorage we use; passed in so this file imports nothing from Node. */
export interface AsyncLocalStorageLike<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}
export type AsyncLocalStorageClass = new <T>() => AsyncLocalStorageLike<T>;

class AsyncContextManager implements ContextManager {
  readonly async = true;
  private readonly storage: AsyncLocalStorageLike<ActiveContext>;

  constructor(Storage: AsyncLocalStorageClass) {
    this.storage = new Storage<ActiveContext>();
  }

  active(): ActiveContext | undefined {
    return this.storage.getStore();
  }

  with<T>(ctx: ActiveContext, fn: () => T): T {
    return this.storage.run(ctx, fn);
  }
}

const KEY = Symbol.for('devtrail.sdk.context-manager');
type Holder = { [KEY]?: ContextManager };

export function getContextManager(): ContextManager {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= new SyncContextManager());
}

export function setContextManager(manager: ContextManager): void {
  (globalThis as Holder)[KEY] = manager;
}

/** Switches to AsyncLocalStorage-backed context once; later calls are no-ops. */
export function installAsyncContext(Storage: AsyncLocalStorageClass | undefined): boolean {
  if (typeof Storage !== 'function') return false;
  if (!getContextManager().async) setContextManager(new AsyncContextManager(Storage));
  return true;
}

export function activeContext(): ActiveContext | undefined {
  return getContextManager().active();
}

export function runWithContext<T>(ctx: ActiveContext, fn: () => T): T {
  return getContextManager().with(ctx, fn);
}
