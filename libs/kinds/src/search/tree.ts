// A parsed search: what syntax.ts reads and prints, sql.ts compiles and check.ts checks.

export type Comparison = '>' | '>=' | '<' | '<=';
export type FieldOp = '=' | Comparison | 'exists';

export type SearchNode =
  | { type: 'and'; children: SearchNode[] }
  | { type: 'or'; children: SearchNode[] }
  | { type: 'not'; child: SearchNode }
  /** Case-insensitive substring of the map's words columns; `*` matches anything when `wildcard`. */
  | { type: 'text'; value: string; wildcard: boolean }
  /** `field` is a field of the map, or a keyed field's name with its `key`. `value` is '' for 'exists'. */
  | { type: 'field'; field: string; key?: string; op: FieldOp; value: string; wildcard: boolean };
