import { mkdirSync } from 'node:fs';
import { Session } from 'chdb';
import { loadNativeBinding, type NativeBinding } from './native-binding.ts';
import { serverDefaultArgs } from './server-defaults.ts';

export interface QueryOutcome {
  data: Buffer;
  resultRows: number;
  resultBytes: number;
  elapsedSeconds: number;
}

export interface InsertOutcome {
  writtenRows: number;
  writtenBytes: number;
  elapsedSeconds: number;
}

// The one chDB session of this process (libchdb binds a single data directory
// per process). Callers serialise access; see SerialQueue.
export class ChdbEngine {
  private constructor(
    private readonly session: Session,
    private readonly native: NativeBinding,
  ) {}

  static open(dataDir: string): ChdbEngine {
    const native = loadNativeBinding();
    mkdirSync(dataDir, { recursive: true });
    return new ChdbEngine(new Session(dataDir, { connectionArgs: serverDefaultArgs() }), native);
  }

  // One statement; `params` bind `{name:Type}` placeholders server-side.
  async query(sql: string, format: string, params?: Record<string, string>): Promise<QueryOutcome> {
    const connection = this.connection();
    const result =
      params && Object.keys(params).length > 0
        ? await this.native.QueryAsyncConnection(connection, sql, format, params)
        : await this.native.QueryAsyncConnection(connection, sql, format);
    const data = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
    return { data, resultRows: result.rowsRead, resultBytes: result.bytesRead, elapsedSeconds: result.elapsed };
  }

  // An INSERT statement plus its inline data, handed to the engine's parser as
  // bytes (no copy, no JS-side parsing); empty data suits INSERT ... SELECT.
  async insert(statement: string, data: Buffer): Promise<InsertOutcome> {
    const result = await this.native.InsertRawAsyncConnection(this.connection(), statement, data, false);
    return { writtenRows: result.rowsWritten, writtenBytes: result.bytesWritten, elapsedSeconds: result.elapsed };
  }

  close(): void {
    this.session.close();
  }

  private connection(): unknown {
    if (!this.session.open) throw new Error('clickhouse-standin: the chDB session is closed');
    return this.session.connection;
  }
}
