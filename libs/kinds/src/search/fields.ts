// What a kind's search names (docs/dashboard.md, "Search syntax"): one map per kind, read by the
// one grammar (syntax.ts) and the one compiler (sql.ts). A field becomes searchable by one line
// in its kind's map: its name, how it matches, its column and its other spellings.

/** A column words are looked for in: its text, or (`json`) the JSON text a JSON column holds. */
export interface TextColumn {
  column: string;
  json: boolean;
}

export type SearchField =
  /** The exact value (case matters); `*` a wildcard; `:*` not empty. */
  | { match: 'exact'; column: string; aliases: readonly string[] }
  /** A substring in any case (ASCII letters), as a word is. */
  | { match: 'text'; columns: readonly TextColumn[]; aliases: readonly string[] }
  /** One of `values`, compared by their order with >, >=, <, <= (a log's level). */
  | { match: 'ordered'; column: string; values: readonly string[]; aliases: readonly string[] }
  /** One of `values` (a span's status). */
  | { match: 'oneOf'; column: string; values: readonly string[]; aliases: readonly string[] }
  /** Milliseconds, written with a unit or without (`250`, `2s`), compared with a number. */
  | { match: 'duration'; column: string; aliases: readonly string[] }
  /** A key of a keyed field, named on its own (an LLM call's `trace_id`, kept in its metadata). */
  | { match: 'key'; keyed: string; aliases: readonly string[] }
  /** A field other kinds have and this one has not (an LLM call's level): a 400 rather than a key that is never there. */
  | { match: 'absent'; aliases: readonly string[] };

/** Keys inside a JSON column (a log's metadata), at `root` within it (a span's resource under `otel.resource`). */
export interface KeyedField {
  /** The field's name in a parsed search: `metadata.user_id` is { field: 'metadata', key: 'user_id' }. */
  name: string;
  column: string;
  root: readonly string[];
}

export interface SearchMap {
  /** What one row is called, in messages ("every log has a level"). */
  noun: string;
  /** Where a word or a phrase is looked for. */
  words: readonly TextColumn[];
  fields: Readonly<Record<string, SearchField>>;
  /** Prefix (`metadata.`) -> keyed field; the first also takes a key written without a prefix. */
  keyed: Readonly<Record<string, KeyedField>>;
  /** What the keyed values are called, in messages ("only level and metadata numbers can"). */
  keyNoun: string;
}

export const plain = (column: string): TextColumn => ({ column, json: false });
export const jsonText = (column: string): TextColumn => ({ column, json: true });
export const exact = (column: string, ...aliases: string[]): SearchField => ({ match: 'exact', column, aliases });
export const text = (columns: readonly TextColumn[], ...aliases: string[]): SearchField => ({ match: 'text', columns, aliases });
export const ordered = (column: string, values: readonly string[], ...aliases: string[]): SearchField => ({ match: 'ordered', column, values, aliases });
export const oneOf = (column: string, values: readonly string[], ...aliases: string[]): SearchField => ({ match: 'oneOf', column, values, aliases });
export const duration = (column: string, ...aliases: string[]): SearchField => ({ match: 'duration', column, aliases });
export const keyOf = (keyed: string, ...aliases: string[]): SearchField => ({ match: 'key', keyed, aliases });
export const absent = (...aliases: string[]): SearchField => ({ match: 'absent', aliases });
export const keyed = (name: string, column: string, ...root: string[]): KeyedField => ({ name, column, root });
