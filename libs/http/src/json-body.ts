import sjson from 'secure-json-parse';
import { checkJsonShape } from './json-shape.ts';

// Every JSON request body is parsed here (Fastify's own parser, secure-json-parse, with
// the same settings) plus one normalisation: a lone UTF-16 surrogate, e.g. a string an
// SDK cut in the middle of an emoji, cannot be stored (ClickHouse refuses it), so it
// becomes U+FFFD, as invalid UTF-8 bytes already do when the body is decoded.
// `__proto__` and `constructor.prototype` keys are refused (prototype poisoning): the
// caller answers 400 "Malformed JSON body".

// Only a \uD800-\uDFFF escape can make a lone surrogate: decoded UTF-8 never holds one.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

export function parseJsonBody(text: string, shapeChecked = false): unknown {
  // Its structure is bounded first (json-shape.ts); NDJSON callers check the whole body once.
  if (!shapeChecked) checkJsonShape(text);
  const value: unknown = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  return text.includes('\\u') && SURROGATE_ESCAPE.test(text) ? wellFormedDeep(value) : value;
}

const fix = (s: string) => (s.isWellFormed() ? s : s.toWellFormed());

/** Replaces lone surrogates in every string and key, in place; iterative, so depth cannot overflow the stack. */
export function wellFormedDeep(value: unknown): unknown {
  if (typeof value === 'string') return fix(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (typeof v[i] === 'string') v[i] = fix(v[i]);
        else if (v[i] !== null && typeof v[i] === 'object') stack.push(v[i]);
      }
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) {
        let child = o[key];
        if (typeof child === 'string') child = o[key] = fix(child);
        else if (child !== null && typeof child === 'object') stack.push(child);
        const k = fix(key);
        if (k !== key) {
          o[k] = child;
          delete o[key];
        }
      }
    }
  }
  return value;
}
