// Node only: the offline store of error reports in a directory (docs/sdk.md#outages), one file
// per request named by its Idempotency-Key, written synchronously before the request is first
// sent (so a crash right after cannot lose it) and removed once the receiver answered. The next
// process with the same directory sends what it finds. Bounded in bytes: past `maxBytes` the
// oldest files go. Only error reports are spooled, so the writes are as rare as the errors.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isStoredRequest, type RequestStore, type StoredRequest } from '../transport/request-store.js';

const SUFFIX = '.devtrail.json';
const KEY = /^[0-9a-f-]{36}$/;

export class FileSpool implements RequestStore {
  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  load(): StoredRequest[] {
    const out: StoredRequest[] = [];
    for (const { path } of this.files()) {
      try {
        const r: unknown = JSON.parse(readFileSync(path, 'utf8'));
        if (isStoredRequest(r)) out.push(r);
        else rmSync(path, { force: true });
      } catch {
        rmSync(path, { force: true }); // half-written by a process killed mid-write
      }
    }
    return out.sort((a, b) => a.at - b.at);
  }

  save(request: StoredRequest): void {
    if (!KEY.test(request.key)) return;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(join(this.dir, request.key + SUFFIX), JSON.stringify(request), { mode: 0o600 });
      this.trim();
    } catch {
      // A full or read-only disk: the request is still held in memory.
    }
  }

  remove(key: string): void {
    if (KEY.test(key)) rmSync(join(this.dir, key + SUFFIX), { force: true });
  }

  /** The oldest files go while the directory holds more than maxBytes (keys are UUIDv7: their names sort by time). */
  private trim(): void {
    const files = this.files().sort((a, b) => (a.path < b.path ? -1 : 1));
    let total = files.reduce((n, f) => n + f.size, 0);
    for (const f of files) {
      if (total <= this.maxBytes) break;
      rmSync(f.path, { force: true });
      total -= f.size;
    }
  }

  private files(): Array<{ path: string; size: number }> {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith(SUFFIX));
    } catch {
      return [];
    }
    return names.flatMap((n) => {
      try {
        const path = join(this.dir, n);
        return [{ path, size: statSync(path).size }];
      } catch {
        return [];
      }
    });
  }
}
