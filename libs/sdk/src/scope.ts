// User, tags, contexts, extras and breadcrumbs (docs/sdk.md#scopes). The client has a global
// scope; request middleware gives every request its own (carried by AsyncLocalStorage on Node)
// so concurrent requests don't mix, and withScope() gives a block of code one of its own.
import type { Breadcrumb, TagValue } from './types.js';
import { toIsoTime } from './wire.js';

/** The user an event is about: `id` (else `email`, else `username`) becomes the error's `user_id`, the rest its `context.user`. */
export interface User {
  id?: string | number;
  email?: string;
  username?: string;
  [field: string]: unknown;
}

export class Scope {
  userId: string | undefined;
  /** The user's other fields (email, username, …), for the error's context. */
  user: Record<string, unknown> | undefined;
  readonly tags: Record<string, TagValue> = {};
  /** Named objects for error reports' context (`setContext('order', {...})` -> context.order). */
  readonly contexts: Record<string, Record<string, unknown>> = {};
  /** Loose values for error reports (`setExtra`) -> context.extra. */
  readonly extras: Record<string, unknown> = {};
  private readonly crumbs: Required<Breadcrumb>[] = [];

  constructor(private readonly maxBreadcrumbs: number) {}

  setUser(user: string | number | User | null | undefined): void {
    this.userId = this.user = undefined;
    if (user === null || user === undefined) return;
    if (typeof user !== 'object') {
      this.userId = String(user);
      return;
    }
    const { id, ...rest } = user;
    const key = id ?? user.email ?? user.username;
    this.userId = key === undefined || key === null ? undefined : String(key);
    if (Object.keys(rest).length > 0) this.user = rest;
  }

  setTag(key: string, value: TagValue): void {
    this.tags[key] = value;
  }

  /** null removes the context. */
  setContext(name: string, context: Record<string, unknown> | null): void {
    if (context === null || typeof context !== 'object') delete this.contexts[name];
    else this.contexts[name] = { ...context };
  }

  setExtra(key: string, value: unknown): void {
    this.extras[key] = value;
  }

  /** A copy: what a withScope() block changes stays in the block. */
  clone(): Scope {
    const copy = new Scope(this.maxBreadcrumbs);
    copy.userId = this.userId;
    copy.user = this.user;
    Object.assign(copy.tags, this.tags);
    Object.assign(copy.contexts, this.contexts);
    Object.assign(copy.extras, this.extras);
    copy.crumbs.push(...this.crumbs);
    return copy;
  }

  addBreadcrumb(crumb: Breadcrumb): void {
    if (this.maxBreadcrumbs <= 0) return;
    this.crumbs.push({ type: crumb.type, message: crumb.message, timestamp: toIsoTime(crumb.timestamp) });
    if (this.crumbs.length > this.maxBreadcrumbs) this.crumbs.shift();
  }

  get breadcrumbs(): Breadcrumb[] {
    return this.crumbs.slice();
  }
}

/** Global scope values, overridden by the request scope where both set something. */
export function mergeScopes(global: Scope, request: Scope | undefined, maxBreadcrumbs: number) {
  const breadcrumbs = request ? [...global.breadcrumbs, ...request.breadcrumbs] : global.breadcrumbs;
  return {
    userId: request?.userId ?? global.userId,
    user: request?.userId !== undefined ? request.user : global.user,
    tags: request ? { ...global.tags, ...request.tags } : { ...global.tags },
    contexts: request ? { ...global.contexts, ...request.contexts } : global.contexts,
    extras: request ? { ...global.extras, ...request.extras } : global.extras,
    breadcrumbs: breadcrumbs.slice(-maxBreadcrumbs),
  };
}
