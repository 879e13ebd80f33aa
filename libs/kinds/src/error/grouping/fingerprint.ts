import { createHash } from 'node:crypto';
import { errorTypeOf, typeName } from './error-type.ts';
import { stripMessage } from './message-mask.ts';
import { stripMessageV2 } from './message-mask-v2.ts';
import { parseStack, type Frame } from './stack-frames.ts';
import { groupType } from './type-family.ts';

// The error fingerprint: SHA-256 (64 lowercase hex) of what identifies one bug, so that
// reports of it group together across deploys, hosts, operating systems, browsers and the
// values in its message, and reports of another bug do not (docs/fingerprint.md says
// exactly what counts, with examples per platform). In order:
//   client   the report names its group (`fingerprint`), optionally around the computed one
//   stack    the type and the in-app frames (function and file), when one of them is named
//   message  else the type and the message with its parameters stripped (and the files of
//            in-app frames whose functions are unnamed, as in minified bundles)
// The hashed text still starts "v2": a report that the cross-platform normalisations
// (type-family.ts, message-mask.ts) leave as it was keeps its fingerprint exactly.

/** Frames per exception of the chain that count, from the innermost. */
export const FINGERPRINT_FRAMES = 10;
/** The token a client fingerprint uses for the computed one, as Sentry's. */
export const DEFAULT_TOKEN = /^\{\{\s*default\s*\}\}$/;

export interface FingerprintInput {
  error_message: string;
  stack_trace: string;
  /** OTLP's exception.type or the SDK's error_type name the type (error-type.ts). */
  context?: Record<string, unknown>;
  /** The client's own grouping (docs/fingerprint.md, "Choosing the group"). */
  fingerprint?: string[];
}

export interface FingerprintParts {
  rule: 'stack' | 'message';
  /** The type as grouping sees it (type-family.ts); the chained exceptions' types after it. */
  types: string[];
  /** "function@file" of the in-app frames that count ("?" for a function without a usable name). */
  frames: string[];
  /** The stripped message (the message rule only). */
  message: string;
}

/** How a rule reads a type and a message: the current one, or v2's frozen (fingerprint-v2.ts). */
export interface Normalisation {
  type(type: string, message: string): string;
  message(message: string): string;
}

const CURRENT: Normalisation = { type: groupType, message: stripMessage };
/** Rule v2, frozen: each type its last name, v2's message masks. */
export const V2: Normalisation = { type: (t) => typeName(t), message: stripMessageV2 };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const shown = (f: Frame) => (f.file ? `${f.fn}@${f.file}` : f.fn);

/** Consecutive repeats (recursion) once, then the innermost FINGERPRINT_FRAMES. */
function keptFrames(frames: Frame[], innermostLast: boolean): Frame[] {
  const own: Frame[] = [];
  for (const f of frames) {
    const last = own[own.length - 1];
    if (f.inApp && !(last && last.fn === f.fn && last.file === f.file)) own.push(f);
  }
  return innermostLast ? own.slice(-FINGERPRINT_FRAMES) : own.slice(0, FINGERPRINT_FRAMES);
}

/** A message that starts with its own type ("Uncaught TypeError: x", "TypeError: x") says the same as "x". */
function withoutType(message: string, type: string): string {
  const m = message.replace(/^(?:Uncaught(?: \(in promise\))? )/, '');
  return m.startsWith(`${type}: `) ? m.slice(type.length + 2) : m;
}

/** What the computed fingerprint is made of: `npx tsx` it on a report to see why it grouped as it did. */
export function fingerprintParts(input: FingerprintInput, how: Normalisation = CURRENT): FingerprintParts {
  const parsed = parseStack(input.stack_trace);
  const type = errorTypeOf(input.stack_trace, input.error_message, input.context);
  const text = input.error_message.trim() || input.stack_trace.split('\n', 1)[0];
  const types = [how.type(type, text), ...parsed.causes.map((c) => how.type(c, ''))];
  const kept = parsed.parts.map((p) => keptFrames(p.frames, parsed.innermostLast));
  const frames = kept.flat();
  if (frames.some((f) => f.fn !== '?')) return { rule: 'stack', types, frames: frames.map(shown), message: '' };
  // Unnamed frames (a minified bundle): only where it was thrown counts, as browsers print
  // more or fewer frames of one error.
  const sites = kept.map((k) => (parsed.innermostLast ? k[k.length - 1] : k[0])).filter((f) => f !== undefined);
  const message = how.message(withoutType(text, type));
  return { rule: 'message', types, frames: sites.map(shown), message };
}

/** The computed fingerprint's text: what is hashed. */
export function defaultFingerprintText(input: FingerprintInput, how: Normalisation = CURRENT): string {
  const p = fingerprintParts(input, how);
  return [`v2 ${p.rule}`, ...p.types, ...(p.rule === 'message' ? [p.message] : []), ...p.frames].join('\n');
}

/** The group of a report: the client's choice (with "{{ default }}" standing for the computed one), else the computed one. */
export function fingerprint(input: FingerprintInput, how: Normalisation = CURRENT): string {
  const chosen = input.fingerprint?.length ? input.fingerprint : undefined;
  if (!chosen) return sha256(defaultFingerprintText(input, how));
  return sha256(JSON.stringify(['client', ...chosen.map((c) => (DEFAULT_TOKEN.test(c) ? defaultFingerprintText(input, how) : c))]));
}
