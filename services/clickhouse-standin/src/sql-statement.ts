import { SqlLexer, type Token } from './sql-lexer.ts';

// Where an INSERT's SQL ends and its inline data begins (both byte offsets).
export interface InsertShape {
  statementEnd: number;
  dataStart: number;
  // 'FORMAT x' data, 'VALUES' data, or none (INSERT ... SELECT).
  dataKind: 'format' | 'values' | 'none';
}

export interface StatementShape {
  // First keyword, upper-cased ('SELECT' for a leading parenthesis); '' if the text is empty.
  kind: string;
  insert?: InsertShape;
  // The trailing `FORMAT <name>` clause of a non-INSERT statement.
  outputFormat?: string;
  multiStatement: boolean;
  intoOutfile: boolean;
  // Set when the text starts with something no statement starts with; the
  // engine silently ignores some such input where a server reports a syntax error.
  badStart?: { position: number; token: string };
}

// Reads the statement at the start of `input` (the concatenated `query` URL
// parameter and request body) the way the server splits it: only the head of an
// INSERT is tokenized, so megabytes of inline rows are never scanned.
export function scanStatement(input: Uint8Array): StatementShape {
  const lexer = new SqlLexer(input);
  const first = lexer.next();
  if (!first) return { kind: '', multiStatement: false, intoOutfile: false };
  if (!(first.type === 'open' || (first.type === 'word' && input[first.start] < 0x80))) {
    const token = lexer.text(first);
    return { kind: token, multiStatement: false, intoOutfile: false, badStart: { position: first.start + 1, token } };
  }
  const kind = first.type === 'open' ? 'SELECT' : lexer.upper(first);
  if (kind === 'INSERT') {
    return { kind, insert: scanInsert(lexer, input), multiStatement: false, intoOutfile: false };
  }
  return scanOther(kind, first, lexer);
}

function scanInsert(lexer: SqlLexer, input: Uint8Array): InsertShape {
  let depth = 0;
  let nameExpected = false;
  for (let token = lexer.next(); token; token = lexer.next()) {
    if (token.type === 'open') depth++;
    else if (token.type === 'close') depth--;
    if (depth > 0 || token.type !== 'word') {
      // `db.table`: the word after a top-level dot is still the name
      if (depth === 0 && token.type === 'dot') nameExpected = true;
      continue;
    }
    const word = lexer.upper(token);
    if (nameExpected) {
      // INTO [TABLE | FUNCTION] <name>: the name itself may read like a keyword
      nameExpected = word === 'TABLE' || word === 'FUNCTION';
      continue;
    }
    if (word === 'INTO') nameExpected = true;
    else if (word === 'FORMAT') {
      const name = lexer.next();
      const end = name ? name.end : token.end;
      return { statementEnd: end, dataStart: skipDataLead(input, end), dataKind: 'format' };
    } else if (word === 'VALUES') {
      return { statementEnd: token.end, dataStart: token.end, dataKind: 'values' };
    } else if (word === 'SELECT' || word === 'WITH') break;
  }
  return { statementEnd: input.length, dataStart: input.length, dataKind: 'none' };
}

// The server starts inline data after spaces/tabs and at most one line break.
function skipDataLead(input: Uint8Array, from: number): number {
  let p = from;
  while (p < input.length && (input[p] === 0x20 || input[p] === 0x09 || input[p] === 0x0c)) p++;
  if (input[p] === 0x0d) p++;
  if (input[p] === 0x0a) p++;
  return p;
}

// The setting names a `SET a = 1, b = 'x'` statement assigns.
export function setStatementNames(input: Uint8Array): string[] {
  const lexer = new SqlLexer(input);
  lexer.next(); // SET
  const names: string[] = [];
  let depth = 0;
  let expectName = true;
  for (let token = lexer.next(); token; token = lexer.next()) {
    if (token.type === 'open') depth++;
    else if (token.type === 'close') depth--;
    else if (depth > 0) continue;
    else if (expectName && (token.type === 'word' || token.type === 'quoted')) {
      names.push(lexer.identifier(token));
      expectName = false;
    } else if (token.type === 'other' && lexer.text(token) === ',') expectName = true;
  }
  return names;
}

function scanOther(kind: string, first: Token, lexer: SqlLexer): StatementShape {
  // Top-level tokens only: FORMAT, INTO OUTFILE and `;` inside brackets are not clauses.
  const top: Token[] = [];
  let depth = first.type === 'open' ? 1 : 0;
  if (depth === 0) top.push(first);
  for (let token = lexer.next(); token; token = lexer.next()) {
    if (token.type === 'open') depth++;
    else if (token.type === 'close') depth = Math.max(0, depth - 1);
    else if (depth === 0) top.push(token);
  }
  let outputFormat: string | undefined;
  let intoOutfile = false;
  let multiStatement = false;
  for (let i = 0; i < top.length; i++) {
    const token = top[i];
    if (token.type === 'semicolon') {
      multiStatement = top.slice(i + 1).some((t) => t.type !== 'semicolon');
      break;
    }
    const word = lexer.upper(token);
    if (word === 'INTO' && lexer.upper(top[i + 1] ?? token) === 'OUTFILE') intoOutfile = true;
    const name = top[i + 1];
    if (word !== 'FORMAT' || !name || (name.type !== 'word' && name.type !== 'quoted')) continue;
    // Only SETTINGS may follow a FORMAT clause; otherwise `format` was a column or alias.
    const after = top[i + 2];
    if (!after || after.type === 'semicolon' || lexer.upper(after) === 'SETTINGS') outputFormat = lexer.identifier(name);
  }
  return { kind, outputFormat, multiStatement, intoOutfile };
}
