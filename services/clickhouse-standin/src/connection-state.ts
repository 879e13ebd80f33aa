import type { ChdbEngine } from './chdb-engine.ts';
import { clickhouseException } from './clickhouse-exception.ts';

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const quoteString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const quoteIdentifier = (name: string) => `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;

// On a server every HTTP request gets a fresh context; the stand-in shares one
// engine connection, where USE and SET would leak into later requests. This puts
// a request's database and settings in place and takes them back out again.
export class ConnectionState {
  private currentDatabase: string | undefined;

  constructor(
    private readonly engine: ChdbEngine,
    private readonly defaultDatabase: string,
    private readonly baseline: ReadonlyMap<string, string>,
  ) {
    this.currentDatabase = defaultDatabase;
  }

  // Applies the request's context and returns the function that undoes it.
  async enter(database: string | undefined, settings: ReadonlyMap<string, string>): Promise<() => Promise<void>> {
    await this.useDatabase(database ?? this.defaultDatabase);
    if (settings.size === 0) return async () => {};
    for (const name of settings.keys()) {
      if (!SETTING_NAME.test(name)) throw clickhouseException('UNKNOWN_SETTING', `Unknown setting '${name}'`);
    }
    const names = [...settings.keys()];
    const assignments = names.map((name) => `${name} = ${quoteString(settings.get(name)!)}`);
    try {
      await this.engine.query(`SET ${assignments.join(', ')}`, 'TabSeparated');
    } catch (error) {
      await this.restoreSettings(names);
      throw error;
    }
    return () => this.restoreSettings(names);
  }

  // A `USE` run as a request's statement moved the connection somewhere unknown.
  forgetDatabase(): void {
    this.currentDatabase = undefined;
  }

  private async useDatabase(database: string): Promise<void> {
    if (database === this.currentDatabase) return;
    this.currentDatabase = undefined;
    await this.engine.query(`USE ${quoteIdentifier(database)}`, 'TabSeparated');
    this.currentDatabase = database;
  }

  // Puts settings back to their values from when the connection was opened.
  async restoreSettings(names: string[]): Promise<void> {
    const assignments = names
      .filter((name) => this.baseline.has(name))
      .map((name) => `${name} = ${quoteString(this.baseline.get(name)!)}`);
    if (assignments.length === 0) return;
    try {
      await this.engine.query(`SET ${assignments.join(', ')}`, 'TabSeparated');
    } catch (error) {
      process.stderr.write(`clickhouse-standin: could not restore settings ${names.join(', ')}: ${(error as Error).message}\n`);
    }
  }
}
