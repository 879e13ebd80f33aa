// Where unsent error reports outlive the page or the process (docs/sdk.md#outages): a request
// is written before it is first sent and removed once the receiver answered it, so the next
// page load (localStorage) or the next start (a spool directory on Node, node/spool.ts) sends
// it again with the same Idempotency-Key and body: exactly once, even if the first attempt
// was written after all. Bounded in bytes; past the bound the oldest are let go.
import type { IngestKind } from './batch-body.js';

export interface StoredRequest {
  key: string;
  /** The body's envelope part as it was first sent (release and service may differ by the next start). */
  prefix: string;
  records: Array<[IngestKind, string]>;
  /** When it was first stored (epoch ms): past the receiver's idempotency window it is not sent again. */
  at: number;
}

export interface RequestStore {
  load(): StoredRequest[];
  save(request: StoredRequest): void;
  remove(key: string): void;
}

/** The receiver remembers an Idempotency-Key for 24 hours (docs/api.md): older requests are not resent. */
export const STORED_MAX_AGE_MS = 24 * 60 * 60_000;

/** A short, stable name for a client's store (its key and receiver), without writing the key itself down. */
export function storeName(apiKey: string, baseUrl: string): string {
  let h = 5381;
  for (const c of `${apiKey} ${baseUrl}`) h = ((h << 5) + h + c.charCodeAt(0)) | 0;
  return (h >>> 0).toString(36);
}

export const storedBytes = (r: StoredRequest): number => r.prefix.length + r.records.reduce((n, [, json]) => n + json.length + 16, 64);

/** Browser: one localStorage entry per client holding its unsent requests, oldest first. */
export class LocalStorageStore implements RequestStore {
  private readonly item: string;

  constructor(
    name: string,
    private readonly maxBytes: number,
    private readonly storage: Storage | undefined = localStorageOrUndefined(),
  ) {
    this.item = `devtrail.unsent.${name}`;
  }

  load(): StoredRequest[] {
    try {
      const list = JSON.parse(this.storage?.getItem(this.item) ?? '[]');
      return Array.isArray(list) ? list.filter(isStoredRequest) : [];
    } catch {
      return [];
    }
  }

  save(request: StoredRequest): void {
    const list = this.load().filter((r) => r.key !== request.key);
    list.push(request);
    let total = list.reduce((n, r) => n + storedBytes(r), 0);
    while (list.length > 0 && total > this.maxBytes) total -= storedBytes(list.shift()!);
    this.write(list);
  }

  remove(key: string): void {
    const list = this.load();
    const kept = list.filter((r) => r.key !== key);
    if (kept.length !== list.length) this.write(kept);
  }

  private write(list: StoredRequest[]): void {
    try {
      if (list.length === 0) this.storage?.removeItem(this.item);
      else this.storage?.setItem(this.item, JSON.stringify(list));
    } catch {
      // Storage full or refused (private mode): the request is still held in memory.
    }
  }
}

function localStorageOrUndefined(): Storage | undefined {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage;
  } catch {
    return undefined; // a sandboxed frame throws on access
  }
}

export function isStoredRequest(r: unknown): r is StoredRequest {
  const s = r as StoredRequest;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.key === 'string' &&
    typeof s.prefix === 'string' &&
    typeof s.at === 'number' &&
    Array.isArray(s.records) &&
    s.records.every((x) => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'string')
  );
}
