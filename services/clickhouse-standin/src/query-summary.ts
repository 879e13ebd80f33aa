// The X-ClickHouse-Summary header: progress counters as decimal strings, the
// shape clickhouse-js exposes as `summary` on command/insert/exec results.
export interface QuerySummary {
  read_rows: string;
  read_bytes: string;
  written_rows: string;
  written_bytes: string;
  total_rows_to_read: string;
  result_rows: string;
  result_bytes: string;
  elapsed_ns: string;
}

export function querySummary(counts: {
  readRows?: number;
  readBytes?: number;
  writtenRows?: number;
  writtenBytes?: number;
  resultRows?: number;
  resultBytes?: number;
  elapsedSeconds: number;
}): QuerySummary {
  const s = (n: number | undefined) => String(Math.max(0, Math.round(n ?? 0)));
  return {
    read_rows: s(counts.readRows),
    read_bytes: s(counts.readBytes),
    written_rows: s(counts.writtenRows),
    written_bytes: s(counts.writtenBytes),
    total_rows_to_read: '0',
    result_rows: s(counts.resultRows),
    result_bytes: s(counts.resultBytes),
    elapsed_ns: s(counts.elapsedSeconds * 1e9),
  };
}
