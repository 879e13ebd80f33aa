// `param_*` values arrive as @clickhouse/client's formatQueryParams wrote them:
// the engine's escaped text (`it\'s`, `['a\'b','c']`, `\N`). chdb's public
// binding (Session.queryBindAsync) takes JS values and escapes strings itself
// (backslash, NUL, \b \f \n \r \t; `null` becomes `\N`), so each value is
// unescaped here by exactly what chdb re-escapes, and the engine parses the
// same text a server would have received. A `\'` cannot survive that (chdb
// would double its backslash), so it becomes `'` in a bare string and the
// SQL-style `''` inside a quoted element.
const UNESCAPE: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r', '0': '\0', b: '\b', f: '\f' };

export function toChdbParam(text: string): string | null {
  if (text === '\\N') return null;
  let out = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    if (c !== '\\' || i + 1 === text.length) {
      out += c;
      continue;
    }
    const next = text[++i];
    if (next === "'") out += quoted ? "''" : "'";
    else out += UNESCAPE[next] ?? `\\${next}`;
  }
  return out;
}
