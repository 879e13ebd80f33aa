import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import { kindOf, type EventKind } from '@devtrail/kinds';

// Whether a request may go to Kafka as it was sent (message version 3, docs/topics.md): its
// kind's checks left it as sent (kind.ts `asSent`: no field its events leave out, nothing to
// normalise), and its bytes say exactly what the parsed body says, so no consumer, whatever
// JSON parser it uses, reads anything the receiver did not check and scrub. The scrubber's part
// (it changed nothing) is the accept step's (accept.ts).

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
/** The third hex digit of a \uD800-\uDFFF escape: 8, 9, a-f, A-F. */
const isSurrogateDigit = (c: number) => c === 56 || c === 57 || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);

/**
 * The keys a JSON text writes (a string followed by a colon), read from its bytes in one pass,
 * string by string, escapes skipped; -1 when it holds an escaped surrogate (\uD800-\uDFFF: the
 * parser makes a lone one U+FFFD, libs/http json-body.ts) or is cut short.
 */
function keysWritten(b: Buffer): number {
  let keys = 0;
  const len = b.length;
  let i = 0;
  while (i < len) {
    if (b[i++] !== QUOTE) continue;
    for (;;) {
      if (i >= len) return -1;
      const c = b[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        if (b[i + 1] === 117 && (b[i + 2] === 100 || b[i + 2] === 68) && isSurrogateDigit(b[i + 3])) return -1;
        i += 2;
      } else i++;
    }
    i++; // past the closing quote
    let k = i;
    while (k < len && isSpace(b[k])) k++;
    if (b[k] === COLON) keys++;
  }
  return keys;
}

/** Keys of every object in a parsed JSON value, at any depth (iterative: depth cannot overflow the stack). */
function keysParsed(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (v[i] !== null && typeof v[i] === 'object') stack.push(v[i]);
      continue;
    }
    for (const k in v as Record<string, unknown>) {
      n++;
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return n;
}

/**
 * The bytes a request goes to Kafka with when it may go as sent; undefined when it may not: its
 * kind has no such form or its checks changed it, the bytes are not valid UTF-8 (the parser
 * replaced some), hold an escaped surrogate (which the parser may replace), or write a key twice
 * (the parser kept only the last: a secret in the first would pass unscrubbed).
 */
export function bytesAsSent(request: FastifyRequest, kind: EventKind, body: unknown): Buffer | undefined {
  const raw = request.rawBody;
  const k = kindOf(kind);
  if (!raw || !k.asSent?.(body) || !isUtf8(raw)) return undefined;
  const written = keysWritten(raw);
  return written >= 0 && written === keysParsed(body) ? raw : undefined;
}
