import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { createClickHouseStore, createTableSql, ensureClickHouseDatabase, toChTime, type ColumnStore } from '@devtrail/column-store';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';
import { ERROR_SEARCH, KINDS, LLM_SEARCH, LOG_SEARCH, parseSearch, SPAN_SEARCH, type SearchMap } from '@devtrail/kinds';
import { searchSql } from '../src/search/sql.ts';
import { searchTreeOf } from './search-arbitraries.ts';
import { matches, type ReferenceRow } from './search-reference.ts';
import { runs } from '../../../test/support/property.ts';
import { UNHURRIED_READS } from '../../../test/support/unhurried-reads.ts';

// What the one search compiler selects is exactly what the syntax says (search-reference.ts),
// for random searches over each kind's real table laid out by its map (logs, spans, errors, LLM
// calls), whose text, JSON and fields are made of the same words: quotes, backslashes, LIKE's
// own % and _, non-ASCII letters, nested and dotted keys, numbers, booleans and null. In the
// ClickHouse engine in-process (chdb), and over HTTP (the local stack's endpoint, and the oldest
// ClickHouse supported in the floor lane), where every parameter travels as the client escapes it.

const WORDS = ['timeout', 'Timeout', 'u_1042', 'u_10', 'checkout', 'é', 'É', '50%', 'a_b', 'x"y', 'back\\slash', 'line\nbreak', '*', 'OR', 'https://x.io/a', '200'];
const KEYS = ['user_id', 'a.b', 'a', 'n', 'flag', 'Level', 'http.status_code', 'http'];
const EXACT = ['checkout', 'check', 'cart', '', 'prod', 'v1', 'v1.2', 't1', 'T1', 'abc_1', 'ctx', 'a%b'];
/** Stored durations are whole milliseconds (the spans' column); searched ones need not be. */
const MS = [0, 1, 200, 250, 600, 1000];

const word = fc.constantFrom(...WORDS);
const scalar = fc.oneof(word, fc.integer({ min: -5, max: 600 }), fc.constantFrom(0.5, 2.25, -2.25, 1000), fc.boolean(), fc.constant(null));
const jsonValue = fc.oneof(
  { weight: 4, arbitrary: scalar },
  fc.dictionary(fc.constantFrom('b', 'status_code', 'x'), scalar, { maxKeys: 2 }),
  fc.array(scalar, { maxLength: 2 }),
);
const jsonObject = fc.dictionary(fc.constantFrom(...KEYS), jsonValue, { maxKeys: 4 });

/** The kinds searched, each with its table and the time columns a row needs to be kept. */
const KINDS_SEARCHED = [
  { map: LOG_SEARCH, kind: KINDS.log },
  { map: SPAN_SEARCH, kind: KINDS.span },
  { map: ERROR_SEARCH, kind: KINDS.error },
  { map: LLM_SEARCH, kind: KINDS.llm },
];

/** A row of the map's columns: each keyed root and JSON column an object, each exact column one of EXACT, text columns words. */
function rowOf(map: SearchMap): fc.Arbitrary<ReferenceRow> {
  const columns: Record<string, fc.Arbitrary<unknown>> = {};
  const text = fc.array(word, { maxLength: 3 }).map((w) => w.join(' '));
  for (const c of map.words) columns[c.column] = c.json ? jsonObject : text;
  for (const def of Object.values(map.fields)) {
    if (def.match === 'exact') columns[def.column] = fc.constantFrom(...EXACT);
    else if (def.match === 'ordered' || def.match === 'oneOf') columns[def.column] = fc.constantFrom(...def.values);
    else if (def.match === 'duration') columns[def.column] = fc.constantFrom(...MS);
    else if (def.match === 'text') for (const c of def.columns) columns[c.column] ??= c.json ? jsonObject : text;
  }
  const roots = Object.values(map.keyed).filter((k) => k.root.length > 0);
  const row = fc.record(columns) as fc.Arbitrary<ReferenceRow>;
  // A keyed field under a root (a span's resource attributes) sits inside its column's object.
  return roots.length === 0
    ? row
    : fc.tuple(row, fc.array(jsonObject, { minLength: roots.length, maxLength: roots.length })).map(([r, inner]) => {
        const out = { ...r };
        roots.forEach((k, i) => {
          out[k.column] = { ...(out[k.column] as object), [k.root.join('.')]: inner[i] };
        });
        return out;
      });
}

const queriesOf = (map: SearchMap) =>
  searchTreeOf(map, {
    text: fc.oneof({ weight: 4, arbitrary: fc.oneof(word, fc.constantFrom('time', 'OUT', 'u_', '0%', '"', '\\', 'é', 'x"', '\n')) }, fc.string({ maxLength: 3 })),
    key: fc.constantFrom(...KEYS, 'a.b.x', 'a.status_code', 'missing'),
    number: fc.constantFrom('200', '0.5', '-2.25', '1e3', '600', '-5', '0'),
    exact: fc.constantFrom(...EXACT, 'CHECKOUT', 'check'),
    ms: fc.constantFrom(...MS.map(String), '300', '0.5', '2.25'),
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
    let store: ColumnStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await open());
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });
    describe.each(KINDS_SEARCHED)('$kind.name', ({ map, kind }) => kindSuite(() => store, map, kind));
  });
}

function kindSuite(storeOf: () => ColumnStore, map: SearchMap, kind: (typeof KINDS_SEARCHED)[number]['kind']) {
  {
    const project = randomUUID();
    const rows = fc.sample(rowOf(map), { numRuns: 80, seed: 23 }).map((r) => ({ ...r, event_id: randomUUID() }));
    const json = new Set([...map.words, ...Object.values(map.fields).flatMap((f) => (f.match === 'text' ? f.columns : []))].filter((c) => c.json).map((c) => c.column));

    beforeAll(async () => {
      const store = storeOf();
      await store.command(createTableSql(kind.tableDef, 30));
      const now = toChTime(new Date().toISOString());
      const times = Object.fromEntries(kind.tableDef.columns.filter((c) => /^DateTime/.test(c.sql)).map((c) => [c.name, now]));
      await store.insert(
        kind.name,
        rows.map(({ event_id, ...r }) => ({
          project_id: project,
          event_id,
          ...times,
          ...Object.fromEntries(Object.entries(r).map(([c, v]) => [c, json.has(c) || Object.values(map.keyed).some((k) => k.column === c) ? JSON.stringify(v) : v])),
        })),
      );
    });
    const select = async (where: string, params: Record<string, unknown>) =>
      (await storeOf().query<{ event_id: string }>(`SELECT event_id FROM ${kind.name} WHERE project_id = {project:String} AND ${where}`, { ...params, project }))
        .map((r) => r.event_id)
        .sort();

    it('selects exactly the rows the syntax says, for any search', async () => {
      const RUNS = runs(map === LOG_SEARCH ? 400 : 200);
      let nonEmpty = 0;
      await fc.assert(
        fc.asyncProperty(queriesOf(map), async (tree) => {
          const { where, params } = searchSql(tree, map);
          const expected = rows
            .filter((r) => matches(tree, map, r))
            .map((r) => r.event_id)
            .sort();
          if (expected.length > 0 && expected.length < rows.length) nonEmpty++;
          expect(await select(where, params)).toEqual(expected);
        }),
        { numRuns: RUNS },
      );
      // The searches were not trivially all or nothing (most are not, whatever the seed).
      expect(nonEmpty).toBeGreaterThan(RUNS / 8);
    }, 120_000);

    // The logs' documented examples (docs/dashboard.md, "Search syntax").
    if (map === LOG_SEARCH)
      it('finds a metadata value, a quoted phrase and a level range as documented', async () => {
        const run = async (q: string) => {
          const { where, params } = searchSql(parseSearch(q, map)!, map);
          return (await select(where, params)).length;
        };
        const count = (f: (l: ReferenceRow) => boolean) => rows.filter(f).length;
        const meta = (l: ReferenceRow) => l.metadata as Record<string, unknown>;
        expect(await run('metadata.user_id:u_1042')).toBe(count((l) => meta(l).user_id === 'u_1042'));
        expect(await run('level:>=warn')).toBe(count((l) => l.level === 'warn' || l.level === 'error'));
        expect(await run('"timeout u_1042"')).toBe(count((l) => /timeout u_1042/i.test(String(l.message)) || /timeout u_1042/i.test(JSON.stringify(l.metadata))));
        expect(await run('level:>error')).toBe(0);
      });
  }
}
