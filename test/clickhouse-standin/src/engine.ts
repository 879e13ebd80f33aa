// What the stand-in's HTTP server asks of a ClickHouse engine (README, "Two engines"): today's
// chDB in-process (chdb-engine.ts) or the production floor's in a Python process
// (floor-engine.ts). The server parses requests, applies the honoured settings, orders the
// statements (scheduled-engine.ts) and renders errors; an engine only runs one statement.
export interface Engine {
  /** The engine's `version()`, as error bodies name it. */
  readonly version: string;
  /**
   * One statement in `database` (an INSERT's rows inline after its FORMAT clause), its output
   * TabSeparated unless the SQL names a format, as on a server. `params` are the `param_*` values
   * as @clickhouse/client sent them: the engine's escaped text. Rejects with the engine's error,
   * whose message is its `Code: N. DB::Exception: ...` text (clickhouse-exception.ts reads it).
   * Called one statement at a time.
   */
  run(sql: string, database: string, params: Readonly<Record<string, string>>): Promise<Buffer>;
  close(): Promise<void>;
}

/** Which engine a stand-in serves: chDB in this process, or the floor's Python interpreter (its venv's, with chdb==3.0.1). */
export type EngineChoice = { name: 'chdb' } | { name: 'floor'; python: string };
