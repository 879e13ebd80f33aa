import { createHash } from 'node:crypto';

// The previous grouping rule, frozen: type + masked message + top 5 frames. It no longer
// names new groups; the receiver still computes it so that an event whose group was made
// under this rule joins that group (docs/fingerprint.md, "Upgrading"). Do not change its
// output: the groups of every project made before the current rule depend on it.

const FINGERPRINT_FRAMES = 5;

import type { FingerprintInput } from './fingerprint.ts';

export interface FingerprintParts {
  errorType: string;
  message: string;
  frames: string[];
}

const MASKS: Array<[RegExp, string]> = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b[\w.+-]+@[\w-]+\.[\w.-]+\b/g, '<email>'],
  [/\bhttps?:\/\/[^\s'"<>]+/gi, '<url>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\d+(\.\d+)?/g, '<n>'],
];

/** Masks the volatile parts of a message: ids, numbers, addresses, times. */
export function normaliseMessage(message: string): string {
  let out = message.trim().slice(0, 1000);
  for (const [re, token] of MASKS) out = out.replace(re, token);
  return out.replace(/\s+/g, ' ');
}

// "TypeError", "errors.NotFound", "Foo::Bar": each qualifier ends with its separator, so
// the pattern cannot backtrack exponentially; and it only ever sees a short prefix.
const TYPE_LINE = /^\s*((?:[A-Za-z_$][\w$]*(?:\.|::?))*[A-Za-z_$][\w$]*)(?::\s|:$)/;
const TYPE_SCAN_CHARS = 200;

const typeIn = (line: string) => TYPE_LINE.exec(line.slice(0, TYPE_SCAN_CHARS))?.[1];

/**
 * The error type: the stack's first line ("TypeError: ..."), or its last line for Python
 * tracebacks (which print the exception last), or the message; else "Error".
 */
export function errorTypeOf(stack: string, message: string): string {
  const lines = stack.split('\n').filter((l) => l.trim() !== '');
  const first = lines[0] ?? '';
  const fromStack = /^Traceback \(most recent call last\)/.test(first) ? typeIn(lines[lines.length - 1] ?? '') : typeIn(first);
  return fromStack ?? typeIn(message) ?? 'Error';
}

// A bundler's content hash in a JavaScript asset's path: a dot-separated part of the name (or
// a directory) of 8 or more letters, digits, "_" or "-" with a digit in it, after any leading
// words ("page-8a7b6c5d4e3f2a1b.js" -> "page-<hash>.js", "index-BkX9a1_2.js", Turbopack's
// "3khe5efsnx6jq.js" -> "<hash>.js", "turbopack-0zq_vp9s-5ndp.js" -> "turbopack-<hash>.js",
// "main.2c1e9b3a.chunk.js", a build id directory). It changes whenever any byte of the bundle
// does (an inlined setting, a rebuild of the same release), so it is masked: one bug stays one
// group across deploys (docs/fingerprint.md, "Bundled JavaScript").
const HASHED = /^((?:[a-z]+-)*)([A-Za-z0-9_-]{8,})$/;
const JS_ASSET = /\.(?:m|c)?js$/;

function maskPart(part: string): string {
  const m = HASHED.exec(part);
  if (!m || !/\d/.test(m[2])) return part;
  return `${m[1]}<hash>`;
}

/** Masks content hashes in the kept segments of a JavaScript asset's path. */
function maskAssetHashes(segments: string[]): string[] {
  if (!JS_ASSET.test(segments[segments.length - 1] ?? '')) return segments;
  return segments.map((s) => s.split('.').map(maskPart).join('.'));
}

/** Strips everything that varies between installs: absolute prefixes, hosts, query strings, line:col, bundle hashes. */
export function normalisePath(path: string): string {
  let p = path
    .replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '')
    .replace(/[?#].*$/, '')
    .replace(/\\/g, '/');
  p = p.replace(/:\d+(:\d+)?$/, '');
  const nm = p.lastIndexOf('node_modules/');
  if (nm >= 0) return p.slice(nm);
  const parts = p.split('/').filter(Boolean);
  return maskAssetHashes(parts.slice(-2)).join('/');
}

const V8_FRAME = /^\s*at\s+(?:(.*?)\s+\()?(.*?)(?::\d+)?(?::\d+)?\)?\s*$/;
// Gecko/WebKit frames always end in :line:col, and their function part has no spaces, so
// an "@" in a message line ("User jane@example.com not found") is not a frame.
const GECKO_FRAME = /^\s*([^\s@]*)@(\S+?):\d+(?::\d+)?\s*$/;
const PY_FRAME = /^\s*File "(.*?)", line \d+, in (.*)$/;

/**
 * Normalised top frames, "function@file", from V8, Gecko/WebKit or Python stacks.
 * Python prints the innermost frame last, so its frames are read from the end.
 */
export function normaliseFrames(stack: string, limit = FINGERPRINT_FRAMES): string[] {
  const frames: string[] = [];
  const lines = stack.split('\n').slice(0, 500);
  if (/^\s*Traceback \(most recent call last\)/.test(lines[0] ?? '')) lines.reverse();
  for (const full of lines) {
    if (frames.length >= limit) break;
    const line = full.slice(0, 1000); // frames are short; bounding keeps every regex cheap
    let fn: string | undefined;
    let file: string | undefined;
    let m: RegExpExecArray | null;
    if (/^\s*at\s/.test(line) && (m = V8_FRAME.exec(line))) {
      [fn, file] = [m[1], m[2]];
    } else if ((m = PY_FRAME.exec(line))) {
      [file, fn] = [m[1], m[2]];
    } else if (line.includes('@') && (m = GECKO_FRAME.exec(line))) {
      [fn, file] = [m[1], m[2]];
    } else {
      continue;
    }
    const name =
      (fn ?? '')
        .replace(/^async\s+/, '')
        .replace(/\s*\[as .*\]$/, '')
        .trim() || '<anonymous>';
    frames.push(`${name}@${normalisePath((file ?? '').trim())}`);
  }
  return frames;
}

export function previousFingerprintParts(input: FingerprintInput): FingerprintParts {
  return {
    errorType: errorTypeOf(input.stack_trace, input.error_message),
    message: normaliseMessage(input.error_message),
    frames: normaliseFrames(input.stack_trace),
  };
}

export function previousFingerprint(input: FingerprintInput): string {
  const parts = previousFingerprintParts(input);
  const text = [parts.errorType, parts.message, ...parts.frames].join('\n');
  return createHash('sha256').update(text).digest('hex');
}
