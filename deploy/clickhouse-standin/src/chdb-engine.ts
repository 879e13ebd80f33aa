import { mkdirSync } from 'node:fs';
import { Session } from 'chdb';
import behaviour from './server-behaviour.json' with { type: 'json' };

// Settings whose chDB (clickhouse-local) default differs from a server's, so
// code tested here meets server behaviour: UInt64 quoted in JSON, ISO-8601
// 'T…Z' refused by the basic DateTime parser, synchronous inserts (shared with
// the floor stand-in, floor/standin.py).
const SERVER_DEFAULTS = Object.entries(behaviour.serverDefaults).map(([name, value]) => `--${name}=${value}`);

const quoteIdentifier = (name: string) => `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;

// The one chDB session of this process (libchdb binds one data directory per
// process). Statements run one at a time in arrival order: each request first
// moves the shared connection to its database, which must not interleave.
export class ChdbEngine {
  private tail: Promise<unknown> = Promise.resolve();
  private closing = false;

  private constructor(
    private readonly session: Session,
    readonly version: string,
  ) {}

  static async open(dataDir: string): Promise<ChdbEngine> {
    mkdirSync(dataDir, { recursive: true });
    const session = new Session(dataDir, { connectionArgs: SERVER_DEFAULTS });
    try {
      const version = (await session.queryAsync('SELECT version()', { format: 'TabSeparatedRaw' })).text().trim();
      return new ChdbEngine(session, version);
    } catch (error) {
      session.close();
      throw error;
    }
  }

  // One statement (INSERT data inline after its FORMAT clause); the output
  // format is TabSeparated unless the SQL names one, as on a server.
  run(sql: string, database: string, params: Record<string, string | null>): Promise<Buffer> {
    if (this.closing) return Promise.reject(new Error('the stand-in is shutting down'));
    const result = this.tail.then(async () => {
      await this.session.queryAsync(`USE ${quoteIdentifier(database)}`);
      const options = { format: 'TabSeparated' };
      const out = Object.keys(params).length > 0 ? await this.session.queryBindAsync(sql, params, options) : await this.session.queryAsync(sql, options);
      const bytes = out.bytes();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  // Refuses new statements, waits for the queued ones, closes the session.
  async close(): Promise<void> {
    this.closing = true;
    await this.tail;
    this.session.close();
  }
}
