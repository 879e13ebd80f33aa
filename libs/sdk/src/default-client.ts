// An optional process-wide client for code that prefers init() once and
// getClient() anywhere. Kept on globalThis so module reloads (dev servers,
// dual ESM/CJS loading) share it.
import { DevtrailClient } from './client.js';
import type { ClientOptions } from './options.js';

const KEY = Symbol.for('devtrail.sdk.default-client');
type Holder = { [KEY]?: DevtrailClient };

export function init(options?: ClientOptions): DevtrailClient {
  const client = new DevtrailClient(options);
  (globalThis as Holder)[KEY] = client;
  return client;
}

export function getClient(): DevtrailClient | undefined {
  return (globalThis as Holder)[KEY];
}
