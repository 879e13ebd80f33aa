// The browser-side client for Next.js apps, configured from NEXT_PUBLIC_*
// variables (which Next inlines at build time) unless options say otherwise.
import { DevtrailClient } from '../client.js';
import type { ClientOptions } from '../options.js';

const KEY = Symbol.for('devtrail.sdk.next.browser-client');
type Holder = { [KEY]?: DevtrailClient };

function publicEnv(): Pick<ClientOptions, 'apiKey' | 'baseUrl' | 'environment' | 'release'> {
  try {
    // Written out in full: Next only inlines literal process.env.NEXT_PUBLIC_* reads.
    return {
      apiKey: process.env.NEXT_PUBLIC_DEVTRAIL_API_KEY || undefined,
      baseUrl: process.env.NEXT_PUBLIC_DEVTRAIL_BASE_URL || undefined,
      environment: process.env.NEXT_PUBLIC_DEVTRAIL_ENVIRONMENT || undefined,
      release: process.env.NEXT_PUBLIC_DEVTRAIL_RELEASE || undefined,
    };
  } catch {
    return {}; // no `process` at all in this bundle
  }
}

/** One client per page, created on first use. Without a key it is a silent no-op. */
export function getBrowserClient(options: ClientOptions = {}): DevtrailClient {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= new DevtrailClient({ service: 'browser', ...publicEnv(), ...options }));
}
