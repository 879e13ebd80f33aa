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
// process). Statements run one at a time: each request first moves the shared
// connection to its database, which must not interleave. Writes run before
// waiting reads, and waiting reads by their `priority` setting (lower first),
// each in arrival order (takeNext): a slow read holds an insert back by the read
// in flight only, which its own limits bound.
export class ChdbEngine {
  private readonly writes: Array<() => Promise<void>> = [];
  private readonly reads: Array<{ priority: number; job: () => Promise<void> }> = [];
  private running: Promise<void> | null = null;
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
  run(
    sql: string,
    database: string,
    params: Record<string, string | null>,
    order: { kind: 'read' | 'write'; priority: number } = { kind: 'write', priority: 0 },
  ): Promise<Buffer> {
    if (this.closing) return Promise.reject(new Error('the stand-in is shutting down'));
    return new Promise<Buffer>((resolve, reject) => {
      const job = async () => {
        try {
          await this.session.queryAsync(`USE ${quoteIdentifier(database)}`);
          const options = { format: 'TabSeparated' };
          const out = Object.keys(params).length > 0 ? await this.session.queryBindAsync(sql, params, options) : await this.session.queryAsync(sql, options);
          const bytes = out.bytes();
          resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        } catch (error) {
          reject(error);
        }
      };
      if (order.kind === 'write') this.writes.push(job);
      else this.reads.push({ priority: order.priority, job });
      this.takeNext();
    });
  }

  // The next statement: a waiting write before any waiting read; then the read of the lowest priority value.
  private takeNext(): void {
    if (this.running) return;
    let best = 0;
    for (let i = 1; i < this.reads.length; i++) if (this.reads[i].priority < this.reads[best].priority) best = i;
    const job = this.writes.shift() ?? this.reads.splice(best, 1)[0]?.job;
    if (!job) return;
    this.running = job().finally(() => {
      this.running = null;
      this.takeNext();
    });
  }

  // Refuses new statements, waits for the queued ones, closes the session.
  async close(): Promise<void> {
    this.closing = true;
    while (this.running) await this.running;
    this.session.close();
  }
}
