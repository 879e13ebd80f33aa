import { fileURLToPath } from 'node:url';
import { fromEngineError } from './clickhouse-exception.ts';
import type { Engine } from './engine.ts';
import { LineProcess } from './line-process.ts';
import behaviour from './server-behaviour.json' with { type: 'json' };

const ENGINE_SCRIPT = fileURLToPath(new URL('../floor/engine.py', import.meta.url));

// ClickHouse's code for a setting this engine does not know.
const UNKNOWN_SETTING = 115;

/** A SQL string literal whose value is `text`. */
const sqlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

// The production floor, ClickHouse 24.8.4.1 (PyPI's chdb==3.0.1, docs/deployment.md#clickhouse-version),
// in a Python process of its own (floor/engine.py, run by `python`, its venv's interpreter).
// The protocol: the engine greets with {version} (or {error}); then per statement
// {sql, database, params} in, {out: base64 of the output} or {error: the engine's text} back.
export async function openFloorEngine(dataDir: string, python: string): Promise<Engine> {
  const engine = new LineProcess('the floor engine', python, [ENGINE_SCRIPT, dataDir]);
  const run = async (sql: string, database: string, params: Readonly<Record<string, string>>) => {
    const answer = (await engine.request({ sql, database, params })) as { out?: string; error?: string };
    if (answer.error !== undefined) throw new Error(answer.error);
    return Buffer.from(answer.out ?? '', 'base64');
  };
  try {
    const greeting = (await engine.next()) as { version?: string; error?: string };
    if (greeting.version === undefined) throw new Error(`the floor engine did not open ${dataDir}: ${greeting.error}`);
    // The engine keeps its shipped defaults but those clickhouse-local sets unlike a server
    // (server-behaviour.json); a setting newer than the floor is already its server behaviour.
    for (const [name, value] of Object.entries(behaviour.serverDefaults)) {
      await run(`SET ${name} = ${sqlString(value)}`, 'default', {}).catch((error: unknown) => {
        if (fromEngineError(error).code !== UNKNOWN_SETTING) throw error;
      });
    }
    return { version: greeting.version, run, close: () => engine.close() };
  } catch (error) {
    await engine.close();
    throw error;
  }
}
