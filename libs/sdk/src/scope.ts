// User, tags and breadcrumbs. The client has a global scope; request
// middleware gives every request its own so concurrent requests don't mix.
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
    breadcrumbs: breadcrumbs.slice(-maxBreadcrumbs),
  };
}
