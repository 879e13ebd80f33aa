import { deflateRawSync, gzipSync } from 'node:zlib';

// Broken request bodies, each a class of input a hostile or buggy client sends. Each one
// is broken whatever the route, so the only right answer is a 4xx with a JSON body
// (broken bodies on every route). `valid` is the route's valid JSON body.

export interface BrokenBody {
  name: string;
  make(valid: string): { headers: Record<string, string>; body?: Buffer };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const gz = (s: string) => gzipSync(Buffer.from(s));

export const BROKEN_BODIES: BrokenBody[] = [
  { name: 'no body, no Content-Type', make: () => ({ headers: {} }) },
  { name: 'empty body', make: () => ({ headers: { ...JSON_TYPE }, body: Buffer.alloc(0) }) },
  { name: 'whitespace body', make: () => ({ headers: { ...JSON_TYPE }, body: Buffer.from(' \r\n\t ') }) },
  { name: 'truncated JSON', make: (v) => ({ headers: { ...JSON_TYPE }, body: Buffer.from(v.slice(0, Math.floor(v.length / 2))) }) },
  { name: 'invalid UTF-8 bytes', make: () => ({ headers: { ...JSON_TYPE }, body: Buffer.from([0xff, 0xfe, 0x7b, 0xc3]) }) },
  { name: 'truncated gzip', make: (v) => ({ headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: gz(v).subarray(0, 12) }) },
  { name: 'garbage gzip', make: () => ({ headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: Buffer.from('this is not gzip at all') }) },
  {
    name: 'gzip with trailing bytes',
    make: (v) => ({ headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: Buffer.concat([gz(v), Buffer.from('trailing garbage')]) }),
  },
  { name: 'gzip of an empty body', make: () => ({ headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: gz('') }) },
  { name: 'gzip, empty body', make: () => ({ headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: Buffer.alloc(0) }) },
  { name: 'gzip, empty body, no Content-Type', make: () => ({ headers: { 'content-encoding': 'gzip' }, body: Buffer.alloc(0) }) },
  { name: 'Content-Length: 0 with Content-Encoding: gzip', make: () => ({ headers: { ...JSON_TYPE, 'content-encoding': 'gzip', 'content-length': '0' } }) },
  { name: 'x-gzip, empty body', make: () => ({ headers: { ...JSON_TYPE, 'content-encoding': 'x-gzip' }, body: Buffer.alloc(0) }) },
  { name: 'x-gzip, truncated', make: (v) => ({ headers: { ...JSON_TYPE, 'content-encoding': 'x-gzip' }, body: gz(v).subarray(0, 12) }) },
  // Garbage deflate: broken whether or not the route decodes deflate.
  { name: 'deflate, garbage', make: () => ({ headers: { ...JSON_TYPE, 'content-encoding': 'deflate' }, body: Buffer.from('not deflate either') }) },
  { name: 'deflate, truncated', make: (v) => ({ headers: { ...JSON_TYPE, 'content-encoding': 'deflate' }, body: deflateRawSync(Buffer.from(v)).subarray(0, 5) }) },
  { name: 'unknown Content-Encoding', make: (v) => ({ headers: { ...JSON_TYPE, 'content-encoding': 'br' }, body: Buffer.from(v) }) },
  { name: 'wrong Content-Type', make: (v) => ({ headers: { 'content-type': 'application/xml' }, body: Buffer.from(v) }) },
  { name: 'missing Content-Type', make: (v) => ({ headers: {}, body: Buffer.from(v) }) },
  { name: 'JSON null', make: () => ({ headers: { ...JSON_TYPE }, body: Buffer.from('null') }) },
  { name: 'prototype-poisoning key', make: () => ({ headers: { ...JSON_TYPE }, body: Buffer.from('{"__proto__":{"x":1}}') }) },
];
