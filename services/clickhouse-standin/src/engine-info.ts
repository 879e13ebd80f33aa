import type { ChdbEngine } from './chdb-engine.ts';

// Facts read from the engine once at startup instead of hard-coded guesses.
export interface EngineInfo {
  version: string;
  timezone: string;
  // Lower-cased output format name -> HTTP Content-Type (system.formats.content_type).
  contentTypes: Map<string, string>;
  // Every setting's value as the connection started (system.settings), for
  // undoing per-request changes.
  baselineSettings: Map<string, string>;
  database: string;
}

async function rows(engine: ChdbEngine, sql: string): Promise<string[][]> {
  const { data } = await engine.query(sql, 'TabSeparatedRaw');
  const text = data.toString('utf8');
  return text === '' ? [] : text.replace(/\n$/, '').split('\n').map((line) => line.split('\t'));
}

export async function readEngineInfo(engine: ChdbEngine): Promise<EngineInfo> {
  const [[version, timezone, database]] = await rows(engine, 'SELECT version(), timezone(), currentDatabase()');
  const formats = await rows(engine, 'SELECT name, content_type FROM system.formats WHERE is_output');
  // JSON-escaped values survive tabs/newlines inside them; decoded below.
  const settings = await rows(engine, 'SELECT name, toJSONString(value) FROM system.settings');
  return {
    version,
    timezone,
    database,
    contentTypes: new Map(formats.map(([name, type]) => [name.toLowerCase(), type])),
    baselineSettings: new Map(settings.map(([name, value]) => [name, JSON.parse(value) as string])),
  };
}
