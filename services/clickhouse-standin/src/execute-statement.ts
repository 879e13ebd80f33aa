import type { ChdbEngine } from './chdb-engine.ts';
import type { ConnectionState } from './connection-state.ts';
import { querySummary, type QuerySummary } from './query-summary.ts';
import type { RequestParams } from './request-params.ts';
import { setStatementNames, type StatementShape } from './sql-statement.ts';

export interface StatementResult {
  body: Buffer;
  // The output format, for statements that produce a result set.
  format?: string;
  summary: QuerySummary;
}

const EMPTY = Buffer.alloc(0);
// Statement kinds that answer with a result set (and a X-ClickHouse-Format header).
const RESULT_KINDS = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXISTS', 'EXPLAIN', 'CHECK', 'VALUES']);

// Runs one request's statement with its database and settings in place. Must be
// called from the serial queue: it owns the engine connection while it runs.
export async function executeStatement(
  engine: ChdbEngine,
  state: ConnectionState,
  params: RequestParams,
  input: Buffer,
  shape: StatementShape,
): Promise<StatementResult> {
  const restore = await state.enter(params.database, params.settings);
  try {
    if (shape.insert) return await runInsert(engine, params, input, shape.insert);
    if (shape.kind === 'SET') return await runSet(engine, state, input);
    const format = shape.outputFormat ?? params.defaultFormat ?? 'TabSeparated';
    try {
      const out = await engine.query(input.toString('utf8'), format, params.queryParams);
      const summary = querySummary({
        readRows: out.resultRows,
        readBytes: out.resultBytes,
        resultRows: out.resultRows,
        resultBytes: out.resultBytes,
        elapsedSeconds: out.elapsedSeconds,
      });
      const producesResult = RESULT_KINDS.has(shape.kind) || out.data.length > 0;
      return { body: out.data, format: producesResult ? format : undefined, summary };
    } finally {
      if (shape.kind === 'USE') state.forgetDatabase();
    }
  } finally {
    await restore();
  }
}

async function runInsert(
  engine: ChdbEngine,
  params: RequestParams,
  input: Buffer,
  insert: NonNullable<StatementShape['insert']>,
): Promise<StatementResult> {
  const statement = input.toString('utf8', 0, insert.statementEnd);
  const data = input.subarray(insert.dataStart);
  // A server inserts nothing for an empty body; chDB would refuse with NO_DATA_TO_INSERT.
  if (insert.dataKind === 'format' && data.length === 0) {
    return { body: EMPTY, summary: querySummary({ elapsedSeconds: 0 }) };
  }
  if (Object.keys(params.queryParams).length > 0) {
    // Placeholders need the bound-query path, which takes text only.
    const sql = insert.dataKind === 'none' ? statement : `${statement}\n${data.toString('utf8')}`;
    const out = await engine.query(sql, 'TabSeparated', params.queryParams);
    return { body: EMPTY, summary: querySummary({ elapsedSeconds: out.elapsedSeconds }) };
  }
  const out = await engine.insert(statement, data);
  const summary = querySummary({
    readRows: out.writtenRows,
    readBytes: out.writtenBytes,
    writtenRows: out.writtenRows,
    writtenBytes: out.writtenBytes,
    elapsedSeconds: out.elapsedSeconds,
  });
  return { body: EMPTY, summary };
}

// Without a session, a server applies SET to that one request only, i.e. it has
// no lasting effect. Run it for validation, then put the values back. `readonly`
// and `param_*` cannot be put back, so they are accepted without running.
async function runSet(engine: ChdbEngine, state: ConnectionState, input: Buffer): Promise<StatementResult> {
  const names = setStatementNames(input);
  const summary = querySummary({ elapsedSeconds: 0 });
  if (names.some((name) => name === 'readonly' || name.startsWith('param_'))) return { body: EMPTY, summary };
  try {
    await engine.query(input.toString('utf8'), 'TabSeparated');
  } finally {
    await state.restoreSettings(names);
  }
  return { body: EMPTY, summary };
}
