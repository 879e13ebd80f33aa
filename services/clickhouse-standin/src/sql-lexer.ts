// A byte-level tokenizer covering just enough of ClickHouse's lexical grammar
// (comments, string literals, quoted identifiers, heredocs, brackets) to find
// statement structure without being fooled by keywords inside literals. It works
// on bytes so offsets stay exact for UTF-8 text and for binary INSERT data it
// never reaches.
export type TokenType = 'word' | 'quoted' | 'string' | 'number' | 'open' | 'close' | 'semicolon' | 'dot' | 'other';

export interface Token {
  type: TokenType;
  start: number;
  end: number;
}

const isSpace = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d);
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
// Non-ASCII bytes count as identifier characters: ClickHouse accepts UTF-8 names.
const isWordStart = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b >= 0x80;
const isWordPart = (b: number) => isWordStart(b) || isDigit(b) || b === 0x24;

export class SqlLexer {
  private pos = 0;

  constructor(private readonly input: Uint8Array) {}

  text(token: Token): string {
    return Buffer.from(this.input.buffer, this.input.byteOffset + token.start, token.end - token.start).toString('utf8');
  }

  upper(token: Token): string {
    return token.type === 'word' ? this.text(token).toUpperCase() : '';
  }

  // The identifier a word or quoted-identifier token names.
  identifier(token: Token): string {
    const raw = this.text(token);
    return token.type === 'quoted' ? raw.slice(1, -1) : raw;
  }

  next(): Token | undefined {
    this.skipSpaceAndComments();
    const { input } = this;
    const start = this.pos;
    if (start >= input.length) return undefined;
    const b = input[start];
    let type: TokenType = 'other';
    if (b === 0x27) {
      this.pos = this.quotedEnd(start, 0x27);
      type = 'string';
    } else if (b === 0x22 || b === 0x60) {
      this.pos = this.quotedEnd(start, b);
      type = 'quoted';
    } else if (b === 0x24 && this.heredocEnd(start) > 0) {
      this.pos = this.heredocEnd(start);
      type = 'string';
    } else if (isDigit(b)) {
      let p = start + 1;
      while (p < input.length && (isWordPart(input[p]) || input[p] === 0x2e)) p++;
      this.pos = p;
      type = 'number';
    } else if (isWordStart(b)) {
      let p = start + 1;
      while (p < input.length && isWordPart(input[p])) p++;
      this.pos = p;
      type = 'word';
    } else {
      this.pos = start + 1;
      if (b === 0x28 || b === 0x5b || b === 0x7b) type = 'open';
      else if (b === 0x29 || b === 0x5d || b === 0x7d) type = 'close';
      else if (b === 0x3b) type = 'semicolon';
      else if (b === 0x2e) type = 'dot';
    }
    return { type, start, end: this.pos };
  }

  private skipSpaceAndComments(): void {
    const { input } = this;
    let p = this.pos;
    for (;;) {
      while (p < input.length && isSpace(input[p])) p++;
      const b = input[p];
      const c = input[p + 1];
      if ((b === 0x2d && c === 0x2d) || (b === 0x23 && (c === 0x20 || c === 0x21))) {
        // `-- comment`, `# comment`, `#!shebang`
        while (p < input.length && input[p] !== 0x0a) p++;
      } else if (b === 0x2f && c === 0x2a) {
        // `/* ... */`, which nests in ClickHouse
        let depth = 0;
        while (p < input.length) {
          if (input[p] === 0x2f && input[p + 1] === 0x2a) {
            depth++;
            p += 2;
          } else if (input[p] === 0x2a && input[p + 1] === 0x2f) {
            p += 2;
            if (--depth === 0) break;
          } else p++;
        }
      } else break;
    }
    this.pos = p;
  }

  // Quoted text with backslash escapes and doubled quotes; unterminated runs to the end.
  private quotedEnd(start: number, quote: number): number {
    const { input } = this;
    let p = start + 1;
    while (p < input.length) {
      const b = input[p];
      if (b === 0x5c) p += 2;
      else if (b === quote) {
        if (input[p + 1] === quote) p += 2;
        else return p + 1;
      } else p++;
    }
    return input.length;
  }

  // `$tag$ ... $tag$`; returns 0 when `$` does not open a heredoc.
  private heredocEnd(start: number): number {
    const { input } = this;
    let p = start + 1;
    while (p < input.length && (isWordPart(input[p]) && input[p] !== 0x24)) p++;
    if (input[p] !== 0x24) return 0;
    const tag = input.subarray(start, p + 1);
    const close = Buffer.from(input.buffer, input.byteOffset, input.length).indexOf(tag, p + 1);
    return close < 0 ? input.length : close + tag.length;
  }
}
