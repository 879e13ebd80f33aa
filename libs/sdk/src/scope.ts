// User, tags and breadcrumbs. The client has a global scope; request
// middleware gives every request its own so concurrent requests don't mix.
import type { Breadcrumb, TagValue } from './types.js';
import { toIsoTime } from './wire.js';

export class Scope {
  userId: string | undefined;
  readonly tags: Record<string, TagValue> = {};
  private readonly crumbs: Required<Breadcrumb>[] = [];

  constructor(private readonly maxBreadcrumbs: number) {}

  setUser(user: string | { id: string | number } | null | undefined): void {
    if (user === null || user === undefined) this.userId = undefined;
    else this.userId = typeof user === 'object' ? String(user.id) : String(user);
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
    tags: request ? { ...global.tags, ...request.tags } : { ...global.tags },
    breadcrumbs: breadcrumbs.slice(-maxBreadcrumbs),
  };
}
