import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import { kindOf, type EventKind } from '@devtrail/kinds';

// Whether a request may go to Kafka as it was sent (message version 3, docs/topics.md): its
// kind's checks left it as sent (kind.ts `asSent`: no field its events leave out, nothing to
// normalise), and its bytes say exactly what the parsed body says, so no consumer, whatever
// JSON parser it uses, reads anything the receiver did not check and scrub. The scrubber's part
// (it changed nothing) is the accept step's (accept.ts).

// A key ends at an unescaped quote followed by a colon: a value's quote is never followed by one.
const KEY_END = /"[\t\n\r ]*:/g;
// \uD800-\uDFFF escapes: the parser makes lone surrogates U+FFFD (libs/http json-body.ts).
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Keys in a JSON text (its bytes as latin1: every byte of JSON's structure is ASCII, and no UTF-8 sequence holds one). */
function keysWritten(text: string): number {
  let n = 0;
  KEY_END.lastIndex = 0;
  for (let m = KEY_END.exec(text); m !== null; m = KEY_END.exec(text)) {
    let backslashes = 0;
    for (let i = m.index - 1; i >= 0 && text.charCodeAt(i) === 92; i--) backslashes++;
    if (backslashes % 2 === 0) n++;
  }
  return n;
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
  const text = raw.toString('latin1');
  if (text.includes('\\u') && SURROGATE_ESCAPE.test(text)) return undefined;
  return keysWritten(text) === keysParsed(body) ? raw : undefined;
}
