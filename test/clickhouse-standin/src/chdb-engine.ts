import { Session } from 'chdb';
import { toChdbParam } from './bound-params.ts';
import type { Engine } from './engine.ts';
import behaviour from './server-behaviour.json' with { type: 'json' };

// Settings whose chDB (clickhouse-local) default differs from a server's, so code tested here
// meets server behaviour: UInt64 quoted in JSON, ISO-8601 'T…Z' refused by the basic DateTime
// parser, synchronous inserts (the floor engine sets the same ones, floor-engine.ts).
const SERVER_DEFAULTS = Object.entries(behaviour.serverDefaults).map(([name, value]) => `--${name}=${value}`);

const quoteIdentifier = (name: string) => `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;

// Today's chDB (the npm package, ClickHouse 26.7) in this process, on its one session: libchdb
// binds one data directory per process, so a process opens one of these. Each statement first
// moves the shared session to its database, so statements must not interleave (the server
// runs them one at a time, scheduled-engine.ts).
export async function openChdbEngine(dataDir: string): Promise<Engine> {
  const session = new Session(dataDir, { connectionArgs: SERVER_DEFAULTS });
  let version: string;
  try {
    version = (await session.queryAsync('SELECT version()', { format: 'TabSeparatedRaw' })).text().trim();
  } catch (error) {
    session.close();
    throw error;
  }
  return {
    version,
    async run(sql, database, params) {
      await session.queryAsync(`USE ${quoteIdentifier(database)}`);
      const options = { format: 'TabSeparated' };
      const names = Object.keys(params);
      const out =
        names.length > 0
          ? await session.queryBindAsync(sql, Object.fromEntries(names.map((name) => [name, toChdbParam(params[name])])), options)
          : await session.queryAsync(sql, options);
      const bytes = out.bytes();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async close() {
      session.close();
    },
  };
}
