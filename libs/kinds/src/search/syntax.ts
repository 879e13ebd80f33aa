import { checkField } from './check.ts';
import type { SearchMap } from './fields.ts';
import { ownEntry } from './own-entry.ts';
import type { Comparison, FieldOp, SearchNode } from './tree.ts';

// The search syntax every kind speaks (docs/dashboard.md, "Search syntax"), parsed into a tree
// that sql.ts turns into a parameterised WHERE clause. Words are ANDed; OR, NOT/-, ( ) and
// "quoted phrases" as in Lucene; `key:value` for a field of the kind's map (fields.ts) or a key of
// its keyed fields, with * as a wildcard, `key:*` for "has the key", and >, >=, <, <= for ordered
// fields and numbers.

export type { Comparison, FieldOp, SearchNode } from './tree.ts';

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
/** A key written without its keyed field's prefix. */
const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const fieldNames = new WeakMap<SearchMap, Map<string, string>>();
/** A map's field names and aliases (lower case) -> its field. */
function namesOf(d: SearchMap): Map<string, string> {
  let names = fieldNames.get(d);
  if (!names) {
    names = new Map(Object.entries(d.fields).flatMap(([name, f]) => [name, ...f.aliases].map((n) => [n, name] as const)));
    fieldNames.set(d, names);
  }
  return names;
}
const SPACE = /\s/;

const isSpace = (c: string | undefined) => c !== undefined && SPACE.test(c);
/** Characters that end a bare word. */
const ends = (c: string | undefined) => c === undefined || isSpace(c) || c === '(' || c === ')' || c === '"';

/** What the part before the first ':' of a word names, or undefined when the word is plain text. */
function fieldOf(word: string, d: SearchMap): { field: string; key?: string; rest: string } | undefined {
  const colon = word.indexOf(':');
  if (colon <= 0) return undefined;
  const name = word.slice(0, colon);
  const rest = word.slice(colon + 1);
  if (rest.startsWith('//')) return undefined; // a URL (https://…) is text
  const known = namesOf(d).get(name.toLowerCase());
  if (known) return { field: known, rest };
  for (const [prefix, keyed] of Object.entries(d.keyed))
    if (name.startsWith(prefix) && name.length > prefix.length) return { field: keyed.name, key: name.slice(prefix.length), rest };
  if (BARE_KEY.test(name)) return { field: Object.values(d.keyed)[0].name, key: name, rest };
  return undefined;
}

/** Parses a search; an empty one is null (no filter). Throws SearchSyntaxError with the position and a readable reason. */
export function parseSearch(src: string, dialect: SearchMap): SearchNode | null {
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

  const fieldTerm = (f: { field: string; key?: string; rest: string }, at: number): SearchNode => {
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
    const node = { type: 'field' as const, field: f.field, ...(f.key === undefined ? {} : { key: f.key }), op, value, wildcard };
    return checkField(node, f.key === undefined ? ownEntry(dialect.fields, f.field) : undefined, dialect, (m) => fail(m, at));
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

// Printing: the canonical text of a tree, which parses back to the same tree.

const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** Whether a bare word reads back as text with this value (a `*` in it then being a wildcard). */
export function bareText(value: string, dialect: SearchMap): boolean {
  if (value === '' || [...value].some((c) => ends(c)) || KEYWORDS.has(value) || value.startsWith('-')) return false;
  return fieldOf(value, dialect) === undefined;
}

/** Whether a bare field value reads back as this value (a `*` in it then being a wildcard). */
export function bareValue(value: string): boolean {
  return value !== '' && value !== '*' && ![...value].some((c) => ends(c)) && !/^[<>]/.test(value);
}

export function printSearch(node: SearchNode | null, dialect: SearchMap): string {
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
      const prefix = Object.entries(dialect.keyed).find(([, k]) => k.name === node.field)?.[0];
      const name = node.key !== undefined && prefix ? `${prefix}${node.key}` : node.field;
      if (node.op === 'exists') return `${name}:*`;
      const op = node.op === '=' ? '' : node.op;
      return `${name}:${op}${node.wildcard || (bareValue(node.value) && !node.value.includes('*')) ? node.value : quote(node.value)}`;
    }
  }
}
