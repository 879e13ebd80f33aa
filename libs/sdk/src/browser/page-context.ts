// Browser only: where an error happened, for its context (docs/sdk.md#browser): the page's URL
// and the browser's user agent (the group page breaks errors down by browser and OS from it).
import { isBrowser } from '../env.js';

export function pageContext(): { url?: string; user_agent?: string } {
  if (!isBrowser()) return {};
  const g = globalThis as { location?: { href?: string }; navigator?: { userAgent?: string } };
  return { url: g.location?.href, user_agent: g.navigator?.userAgent };
}
