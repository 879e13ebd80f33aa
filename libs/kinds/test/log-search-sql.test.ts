import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { createClickHouseStore, createTableSql, ensureClickHouseDatabase, type ColumnStore } from '@devtrail/column-store';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';
import { KINDS, logLevels } from '@devtrail/kinds';
import { searchSql } from '../src/log/search/sql.ts';
import { parseSearch } from '../src/log/search/syntax.ts';
import { searchTreeOf } from './log-search-arbitraries.ts';
import { matches, type ReferenceLog } from './log-search-reference.ts';
import { runs } from '../../../test/support/property.ts';
import { UNHURRIED_READS } from '../../../test/support/unhurried-reads.ts';

// What the search SQL selects is exactly what the syntax says (log-search-reference.ts), for
// random searches over logs whose messages, metadata and fields are made of the same words:
// quotes, backslashes, LIKE's own % and _, non-ASCII letters, nested and dotted keys,
// numbers, booleans and null. In the ClickHouse engine in-process (chdb), and over HTTP
// (the local stack's endpoint), where every parameter travels as the client escapes it.

const WORDS = ['timeout', 'Timeout', 'u_1042', 'u_10', 'checkout', 'é', 'É', '50%', 'a_b', 'x"y', 'back\\slash', 'line\nbreak', '*', 'OR', 'https://x.io/a', '200'];
const KEYS = ['user_id', 'a.b', 'a', 'n', 'flag', 'Level', 'http.status_code', 'http'];
const EXACT = ['checkout', 'check', 'cart', '', 'prod', 'v1', 'v1.2', 't1', 'T1', 'abc_1', 'ctx', 'a%b'];

const word = fc.constantFrom(...WORDS);
const scalar = fc.oneof(word, fc.integer({ min: -5, max: 600 }), fc.constantFrom(0.5, 2.25, -2.25, 1000), fc.boolean(), fc.constant(null));
const metadataValue = fc.oneof(
  { weight: 4, arbitrary: scalar },
  fc.dictionary(fc.constantFrom('b', 'status_code', 'x'), scalar, { maxKeys: 2 }),
  fc.array(scalar, { maxLength: 2 }),
);
const logArb: fc.Arbitrary<ReferenceLog> = fc.record({
  level: fc.constantFrom(...logLevels),
  message: fc.array(word, { maxLength: 3 }).map((w) => w.join(' ')),
  metadata: fc.dictionary(fc.constantFrom(...KEYS), metadataValue, { maxKeys: 4 }),
  service: fc.constantFrom(...EXACT),
  environment: fc.constantFrom(...EXACT),
  release: fc.constantFrom(...EXACT),
  context: fc.constantFrom(...EXACT),
  trace_id: fc.constantFrom(...EXACT),
  span_id: fc.constantFrom(...EXACT),
  request_id: fc.constantFrom(...EXACT),
});

const queries = searchTreeOf({
  text: fc.oneof({ weight: 4, arbitrary: fc.oneof(word, fc.constantFrom('time', 'OUT', 'u_', '0%', '"', '\\', 'é', 'x"', '\n')) }, fc.string({ maxLength: 3 })),
  key: fc.constantFrom(...KEYS, 'a.b.x', 'a.status_code', 'missing'),
  number: fc.constantFrom('200', '0.5', '-2.25', '1e3', '600', '-5', '0'),
  exact: fc.constantFrom(...EXACT, 'CHECKOUT', 'check'),
});

const chdb = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dt-search-'));
  return { store: createChdbStore(dir, 'search_test', UNHURRIED_READS), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
};
const overHttp = async () => {
  const opts = { url: STACK.clickhouseUrl, database: `dt_search_${randomBytes(4).toString('hex')}` };
  await ensureClickHouseDatabase(opts);
  return {
    store: createClickHouseStore(opts),
    cleanup: async () => {
      const admin = createClickHouseStore({ ...opts, database: 'default' });
      await admin.command(`DROP DATABASE IF EXISTS ${opts.database}`);
      await admin.close();
    },
  };
};

searchSqlSuite('chdb (in-process)', chdb);
if (await stackUp()) searchSqlSuite('ClickHouse over HTTP (the local stack)', overHttp);
else describe.skip(`search SQL over ClickHouse HTTP (skipped: ${NO_STACK_REASON})`, () => {});

function searchSqlSuite(name: string, open: () => Promise<{ store: ColumnStore; cleanup: () => Promise<void> }>) {
  describe(`search SQL: ${name}`, () => {
    const project = randomUUID();
    let store: ColumnStore;
    let cleanup: () => Promise<void>;
    const logs = fc.sample(logArb, { numRuns: 80, seed: 23 }).map((l) => ({ ...l, event_id: randomUUID() }));

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.command(createTableSql(KINDS.log.tableDef, 30));
      const now = new Date().toISOString();
      await store.insert(
        KINDS.log.name,
        logs.map(({ event_id, ...data }) =>
          KINDS.log.toRow({ project_id: project, event_id, received_at: now, data: { ...data, level: data.level as (typeof logLevels)[number], timestamp: now } }, 30),
        ),
      );
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    const select = async (where: string, params: Record<string, unknown>) =>
      (
        await store.query<{ event_id: string }>(`SELECT event_id FROM ${KINDS.log.name} WHERE project_id = {project:String} AND ${where}`, {
          ...params,
          project,
        })
      )
        .map((r) => r.event_id)
        .sort();

    it('selects exactly the logs the syntax says, for any search', async () => {
      const RUNS = runs(400);
      let nonEmpty = 0;
      await fc.assert(
        fc.asyncProperty(queries, async (tree) => {
          const { where, params } = searchSql(tree);
          const expected = logs
            .filter((l) => matches(tree, l))
            .map((l) => l.event_id)
            .sort();
          if (expected.length > 0 && expected.length < logs.length) nonEmpty++;
          expect(await select(where, params)).toEqual(expected);
        }),
        { numRuns: RUNS },
      );
      // The searches were not trivially all or nothing (most are not, whatever the seed).
      expect(nonEmpty).toBeGreaterThan(RUNS / 8);
    }, 120_000);

    it('finds a metadata value, a quoted phrase and a level range as documented', async () => {
      const run = async (q: string) => {
        const { where, params } = searchSql(parseSearch(q)!);
        return (await select(where, params)).length;
      };
      const count = (f: (l: ReferenceLog) => boolean) => logs.filter(f).length;
      expect(await run('metadata.user_id:u_1042')).toBe(count((l) => l.metadata.user_id === 'u_1042'));
      expect(await run('level:>=warn')).toBe(count((l) => l.level === 'warn' || l.level === 'error'));
      expect(await run('"timeout u_1042"')).toBe(count((l) => /timeout u_1042/i.test(l.message) || /timeout u_1042/i.test(JSON.stringify(l.metadata))));
      expect(await run('level:>error')).toBe(0);
    });
  });
}
