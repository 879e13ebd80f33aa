import { createHash } from 'node:crypto';

// The error fingerprint: SHA-256 (64 lowercase hex) over normalised content, so that
// the same error groups together across line numbers, ids in messages and install
// paths, while a different error type or call path does not. docs/fingerprint.md
// documents the inputs; receiver and consumers both call this one function.

export const FINGERPRINT_FRAMES = 5;

export interface FingerprintInput {
  error_message: string;
  stack_trace: string;
}

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

const TYPE_LINE = /^\s*((?:[A-Za-z_$][\w$]*[.:]{0,2})*[A-Za-z_$][\w$]*)(?::\s|:$)/;

/** The error type from the stack's first line ("TypeError: ..."), else "Error". */
export function errorTypeOf(stack: string, message: string): string {
  const first = stack.split('\n', 1)[0] ?? '';
  const m = TYPE_LINE.exec(first) ?? TYPE_LINE.exec(message);
  return m ? m[1] : 'Error';
}

/** Strips everything that varies between installs: absolute prefixes, hosts, query strings, line:col. */
export function normalisePath(path: string): string {
  let p = path.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '').replace(/\\/g, '/');
  p = p.replace(/:\d+(:\d+)?$/, '');
  const nm = p.lastIndexOf('node_modules/');
  if (nm >= 0) return p.slice(nm);
  const parts = p.split('/').filter(Boolean);
  return parts.slice(-2).join('/');
}

const V8_FRAME = /^\s*at\s+(?:(.*?)\s+\()?(.*?)(?::\d+)?(?::\d+)?\)?\s*$/;
const GECKO_FRAME = /^\s*(.*?)@(.*?)(?::\d+)?(?::\d+)?\s*$/;
const PY_FRAME = /^\s*File "(.*?)", line \d+, in (.*)$/;

/** Normalised top frames, "function@file", from V8, Gecko/WebKit or Python stacks. */
export function normaliseFrames(stack: string, limit = FINGERPRINT_FRAMES): string[] {
  const frames: string[] = [];
  for (const line of stack.split('\n')) {
    if (frames.length >= limit) break;
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
    const name = (fn ?? '').replace(/^async\s+/, '').replace(/\s*\[as .*\]$/, '').trim() || '<anonymous>';
    frames.push(`${name}@${normalisePath((file ?? '').trim())}`);
  }
  return frames;
}

export function fingerprintParts(input: FingerprintInput): FingerprintParts {
  return {
    errorType: errorTypeOf(input.stack_trace, input.error_message),
    message: normaliseMessage(input.error_message),
    frames: normaliseFrames(input.stack_trace),
  };
}

export function fingerprint(input: FingerprintInput): string {
  const parts = fingerprintParts(input);
  const text = [parts.errorType, parts.message, ...parts.frames].join('\n');
  return createHash('sha256').update(text).digest('hex');
}
