import { ColumnStoreError, type ColumnStore } from './column-store.ts';

// The oldest ClickHouse devtrail supports, and the exact version CI runs every SQL family on
// (test/clickhouse-standin/floor: PyPI's chdb==3.0.1, with the engine's shipped defaults).
// Below it: lightweight deletes without `lightweight_deletes_sync` (before 24.4), DateTime64's
// range and the SQL the read API and the migrations send were never run on it (docs/deployment.md#clickhouse-version).
export const CLICKHOUSE_FLOOR = { major: 24, minor: 8, tested: '24.8.4.1' } as const;

/** `24.8.4.1` → [24, 8]; null when the text is not a version. */
export function parseServerVersion(text: string): [number, number] | null {
  const m = /^(\d+)\.(\d+)(\.|$)/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export const supportedServer = (version: string) => {
  const v = parseServerVersion(version);
  return v !== null && (v[0] > CLICKHOUSE_FLOOR.major || (v[0] === CLICKHOUSE_FLOOR.major && v[1] >= CLICKHOUSE_FLOOR.minor));
};

/** The server's version(), or a permanent failure naming it and the floor when it is older than devtrail supports. */
export async function requireSupportedServer(store: ColumnStore, where: string): Promise<string> {
  const [{ v }] = await store.query<{ v: string }>('SELECT version() AS v');
  if (!supportedServer(v)) {
    throw new ColumnStoreError(
      `ClickHouse ${v} at ${where} is older than devtrail supports: it needs ClickHouse ${CLICKHOUSE_FLOOR.major}.${CLICKHOUSE_FLOOR.minor} or later (docs/deployment.md#clickhouse-version)`,
      false,
    );
  }
  return v;
}
