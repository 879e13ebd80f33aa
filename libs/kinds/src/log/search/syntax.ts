import { logLevels } from '../event.ts';

// The logs explorer's search syntax (docs/dashboard.md, "Search syntax"), parsed into a tree
// that sql.ts turns into a parameterised WHERE clause. Words are ANDed; OR, NOT/-, ( ) and
// "quoted phrases" as in Lucene; `key:value` for a log field or a metadata key, with * as a
// wildcard, `key:*` for "has the key", and >, >=, <, <= for levels and numbers.

/** Log columns the syntax names, with their other spellings. */
export const SEARCH_FIELDS = {
  level: { kind: 'level', aliases: [] },
  service: { kind: 'exact', aliases: [] },
  environment: { kind: 'exact', aliases: ['env'] },
  release: { kind: 'exact', aliases: [] },
  context: { kind: 'exact', aliases: [] },
  trace_id: { kind: 'exact', aliases: ['trace'] },
  span_id: { kind: 'exact', aliases: ['span'] },
  request_id: { kind: 'exact', aliases: ['request'] },
  message: { kind: 'text', aliases: ['msg'] },
} as const;

/** A field a search names: one of its dialect's fields, or a keyed one (`metadata`, a span's `resource`). */
export type SearchField = string;
export type Comparison = '>' | '>=' | '<' | '<=';
export type FieldOp = '=' | Comparison | 'exists';

export type SearchNode =
  | { type: 'and'; children: SearchNode[] }
  | { type: 'or'; children: SearchNode[] }
  | { type: 'not'; child: SearchNode }
  /** Case-insensitive substring of the message or of the metadata; `*` matches anything when `wildcard`. */
  | { type: 'text'; value: string; wildcard: boolean }
  /** `key` is the metadata key (for field 'metadata' only). `value` is '' for 'exists'. */
  | { type: 'field'; field: SearchField; key?: string; op: FieldOp; value: string; wildcard: boolean };

/**
 * What one kind's search names: its fields (with their other spellings), the prefixes of its
 * keyed fields (`metadata.` for every kind) and the check of a field term, which answers the
 * term as it is stored (a level lowered, a duration in milliseconds) or fails with the reason.
 * The grammar (words, phrases, AND/OR/NOT, brackets, wildcards) is every kind's.
 */
export interface SearchDialect {
  fields: Record<string, { kind: string; aliases: readonly string[] }>;
  /** `prefix` -> keyed field: `metadata.user_id` is { field: 'metadata', key: 'user_id' }. The first is the one a bare key means. */
  keyed: Record<string, string>;
  check(node: Extract<SearchNode, { type: 'field' }>, fail: (message: string) => never): SearchNode;
}

/**
 * Bounds on the work one query can ask for (docs/dashboard.md, "Search syntax"). A keyed term
 * (a metadata key) costs a JSON parse of every row's field per path (a dotted key is two paths),
 * and a wildcard a LIKE with no index to answer it: both are bounded on their own.
 */
export const SEARCH_LIMITS = { length: 1000, terms: 64, depth: 16, metadataPaths: 8, wildcards: 8 } as const;

export class SearchSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'SearchSyntaxError';
  }
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT']);
/** A metadata key written without the `metadata.` prefix. */
const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const METADATA_PREFIX = 'metadata.';
const fieldNames = new WeakMap<SearchDialect, Map<string, string>>();
/** A dialect's field names and aliases (lower case) -> its field. */
function namesOf(d: SearchDialect): Map<string, string> {
  let names = fieldNames.get(d);
  if (!names) {
    names = new Map(Object.entries(d.fields).flatMap(([name, f]) => [name, ...f.aliases].map((n) => [n, name] as const)));
    fieldNames.set(d, names);
  }
  return names;
}
const SPACE = /\s/;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const LEVEL_NAMES = logLevels as readonly string[];

const isSpace = (c: string | undefined) => c !== undefined && SPACE.test(c);
/** Characters that end a bare word. */
const ends = (c: string | undefined) => c === undefined || isSpace(c) || c === '(' || c === ')' || c === '"';

/** What the part before the first ':' of a word names, or undefined when the word is plain text. */
function fieldOf(word: string, d: SearchDialect): { field: SearchField; key?: string; rest: string } | undefined {
  const colon = word.indexOf(':');
  if (colon <= 0) return undefined;
  const name = word.slice(0, colon);
  const rest = word.slice(colon + 1);
  if (rest.startsWith('//')) return undefined; // a URL (https://…) is text
  const known = namesOf(d).get(name.toLowerCase());
  if (known) return { field: known, rest };
  for (const [prefix, field] of Object.entries(d.keyed))
    if (name.startsWith(prefix) && name.length > prefix.length) return { field, key: name.slice(prefix.length), rest };
  if (BARE_KEY.test(name)) return { field: Object.values(d.keyed)[0], key: name, rest };
  return undefined;
}

/** Parses a search; an empty one is null (no filter). Throws SearchSyntaxError with the position and a readable reason. */
export function parseSearch(src: string, dialect: SearchDialect = LOG_SEARCH): SearchNode | null {
  if (src.length > SEARCH_LIMITS.length) throw new SearchSyntaxError(`the search is longer than ${SEARCH_LIMITS.length} characters`, SEARCH_LIMITS.length);
  let pos = 0;
  let terms = 0;
  let depth = 0;
  let paths = 0;
  let wildcards = 0;
  const fail = (message: string, at = pos): never => {
    throw new SearchSyntaxError(`${message} (at character ${at + 1})`, at);
  };
  const skipSpace = () => {
    while (isSpace(src[pos])) pos++;
  };
  const keywordAhead = (word: string) => {
    const next = src[pos + word.length];
    return src.startsWith(word, pos) && (next === undefined || isSpace(next) || next === '(' || next === ')');
  };
  const deeper = () => {
    if (++depth > SEARCH_LIMITS.depth) fail(`terms nested deeper than ${SEARCH_LIMITS.depth}`);
  };
  const countTerm = () => {
    if (++terms > SEARCH_LIMITS.terms) fail(`more than ${SEARCH_LIMITS.terms} terms`);
  };
  const countWildcard = (at: number) => {
    if (++wildcards > SEARCH_LIMITS.wildcards) fail(`more than ${SEARCH_LIMITS.wildcards} terms with a * wildcard`, at);
  };

  const quoted = (): string => {
    const start = pos++;
    let out = '';
    for (;;) {
      const c = src[pos];
      if (c === undefined) return fail('a quote is not closed', start);
      pos++;
      if (c === '"') return out;
      if (c === '\\') {
        const next = src[pos];
        if (next === undefined) return fail('a quote is not closed', start);
        out += next;
        pos++;
      } else out += c;
    }
  };

  const word = (): string => {
    const start = pos;
    while (!ends(src[pos])) pos++;
    return src.slice(start, pos);
  };

  const fieldTerm = (f: { field: SearchField; key?: string; rest: string }, at: number): SearchNode => {
    let rest = f.rest;
    let op: FieldOp = '=';
    const cmp = /^(>=|<=|>|<)/.exec(rest);
    if (cmp) {
      op = cmp[1] as Comparison;
      rest = rest.slice(cmp[1].length);
    }
    let value = rest;
    let wildcard = false;
    if (rest === '') {
      if (src[pos] !== '"') return fail(`a value is missing after "${src.slice(at, pos)}"`, at);
      value = quoted();
    } else if (rest === '*' && op === '=') {
      op = 'exists';
      value = '';
    } else wildcard = rest.includes('*');
    if (f.key !== undefined && (paths += f.key.includes('.') ? 2 : 1) > SEARCH_LIMITS.metadataPaths)
      fail(`more than ${SEARCH_LIMITS.metadataPaths} metadata keys (a key with dots counts twice)`, at);
    if (wildcard) countWildcard(at);
    return dialect.check({ type: 'field', field: f.field, ...(f.key === undefined ? {} : { key: f.key }), op, value, wildcard }, (m) => fail(m, at));
  };

  const primary = (): SearchNode => {
    skipSpace();
    const at = pos;
    const c = src[pos];
    if (c === undefined) return fail('a term is missing at the end');
    if (c === ')') return fail('a ")" has no "(" before it');
    if (c === '(') {
      pos++;
      deeper();
      skipSpace();
      if (src[pos] === ')') fail('empty brackets');
      const inner = or();
      skipSpace();
      if (src[pos] !== ')') fail('a "(" is not closed', at);
      pos++;
      depth--;
      return inner;
    }
    countTerm();
    if (c === '"') return { type: 'text', value: quoted(), wildcard: false };
    const w = word();
    const f = fieldOf(w, dialect);
    if (f) return fieldTerm(f, at);
    if (w.includes('*')) countWildcard(at);
    return { type: 'text', value: w, wildcard: w.includes('*') };
  };

  // NOT x, -x, -"a phrase", -(a OR b); a lone "-" is text.
  const unary = (): SearchNode => {
    skipSpace();
    const next = src[pos + 1];
    const negation = keywordAhead('NOT') ? 3 : src[pos] === '-' && next !== undefined && !isSpace(next) && next !== ')' ? 1 : 0;
    if (negation === 0) return primary();
    pos += negation;
    deeper();
    const child = unary();
    depth--;
    return { type: 'not', child };
  };

  const and = (): SearchNode => {
    const children: SearchNode[] = [];
    for (;;) {
      skipSpace();
      if (pos >= src.length || src[pos] === ')' || keywordAhead('OR')) break;
      if (keywordAhead('AND')) {
        if (children.length === 0) fail('"AND" has no term before it');
        pos += 3;
        skipSpace();
        if (pos >= src.length || src[pos] === ')' || keywordAhead('OR') || keywordAhead('AND')) fail('"AND" has no term after it');
        continue;
      }
      children.push(unary());
    }
    if (children.length === 0) fail(keywordAhead('OR') ? '"OR" has no term before it' : 'a term is missing');
    return children.length === 1 ? children[0] : { type: 'and', children };
  };

  const or = (): SearchNode => {
    const children = [and()];
    for (;;) {
      skipSpace();
      if (!keywordAhead('OR')) break;
      pos += 2;
      skipSpace();
      if (pos >= src.length || src[pos] === ')') fail('"OR" has no term after it');
      children.push(and());
    }
    return children.length === 1 ? children[0] : { type: 'or', children };
  };

  skipSpace();
  if (pos >= src.length) return null;
  const tree = or();
  skipSpace();
  if (pos < src.length) fail('a ")" has no "(" before it');
  return tree;
}

/** The largest number a search compares exactly (2^53 - 1): past it a float's neighbours are more than 1 apart. */
export const MAX_EXACT_NUMBER = Number.MAX_SAFE_INTEGER;
/** Whether a number as written is compared exactly (as a float, its magnitude at most 2^53 - 1). */
export const exactNumber = (value: string) => Math.abs(Number(value)) <= MAX_EXACT_NUMBER;

/** The check every dialect shares: only a keyed field (a metadata number) compares, and only with a number. */
export function checkKeyedOrExact(node: Extract<SearchNode, { type: 'field' }>, fail: (m: string) => never, comparable = 'metadata numbers'): SearchNode {
  const name = node.key === undefined ? node.field : `${node.field}.${node.key}`;
  const comparison = node.op !== '=' && node.op !== 'exists';
  if (comparison && node.key === undefined) return fail(`${name} cannot be compared with ${node.op}: only ${comparable} can`);
  if (comparison && (node.wildcard || !NUMBER.test(node.value) || !Number.isFinite(Number(node.value))))
    return fail(`${name}${node.op} needs a number, not "${node.value}"`);
  if (comparison && !exactNumber(node.value))
    return fail(
      `${name}${node.op} compares numbers up to 2^53 (${MAX_EXACT_NUMBER}) exactly, not "${node.value}": use a smaller number, or ${name}:${node.value} to match it as written`,
    );
  return node;
}

/** The logs' search: their fields, `metadata.` keys, levels compared by severity. */
export const LOG_SEARCH: SearchDialect = {
  fields: SEARCH_FIELDS,
  keyed: { [METADATA_PREFIX]: 'metadata' },
  check(node, fail) {
    if (node.field === 'level') {
      if (node.op === 'exists') return fail('every log has a level: "level:*" filters nothing');
      const level = node.value.toLowerCase();
      if (node.wildcard || !LEVEL_NAMES.includes(level)) return fail(`level is one of ${LEVEL_NAMES.join(', ')}, not "${node.value}"`);
      return { ...node, value: level };
    }
    return checkKeyedOrExact(node, fail, 'level and metadata numbers');
  },
};

// Printing: the canonical text of a tree, which parses back to the same tree.

const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** Whether a bare word reads back as text with this value (a `*` in it then being a wildcard). */
export function bareText(value: string, dialect: SearchDialect = LOG_SEARCH): boolean {
  if (value === '' || [...value].some((c) => ends(c)) || KEYWORDS.has(value) || value.startsWith('-')) return false;
  return fieldOf(value, dialect) === undefined;
}

/** Whether a bare field value reads back as this value (a `*` in it then being a wildcard). */
export function bareValue(value: string): boolean {
  return value !== '' && value !== '*' && ![...value].some((c) => ends(c)) && !/^[<>]/.test(value);
}

export function printSearch(node: SearchNode | null, dialect: SearchDialect = LOG_SEARCH): string {
  if (!node) return '';
  const print = (n: SearchNode) => printSearch(n, dialect);
  switch (node.type) {
    case 'and':
      return node.children.map((c) => (c.type === 'or' || c.type === 'and' ? `(${print(c)})` : print(c))).join(' ');
    case 'or':
      return node.children.map((c) => (c.type === 'or' ? `(${print(c)})` : print(c))).join(' OR ');
    case 'not':
      return `-${node.child.type === 'and' || node.child.type === 'or' ? `(${print(node.child)})` : print(node.child)}`;
    case 'text':
      return node.wildcard || (bareText(node.value, dialect) && !node.value.includes('*')) ? node.value : quote(node.value);
    case 'field': {
      const prefix = Object.entries(dialect.keyed).find(([, f]) => f === node.field)?.[0];
      const name = node.key !== undefined && prefix ? `${prefix}${node.key}` : node.field;
      if (node.op === 'exists') return `${name}:*`;
      const op = node.op === '=' ? '' : node.op;
      return `${name}:${op}${node.wildcard || (bareValue(node.value) && !node.value.includes('*')) ? node.value : quote(node.value)}`;
    }
  }
}
