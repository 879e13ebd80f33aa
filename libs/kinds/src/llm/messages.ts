import { z } from 'zod';
import { isPlainObject } from '../checks.ts';
import { jsonDepth } from '../json-depth.ts';
import { MAX_JSON_DEPTH } from '../request-fields.ts';

// An LLM call's conversation as devtrail keeps it (docs/otlp.md, "Conversation"): the
// OpenTelemetry GenAI message shape, a role and its parts (text, tool calls, tool results),
// whichever way it came in (GenAI attributes or events, OpenLLMetry's indexed attributes,
// /ingest/llm's input and output in OpenAI's chat shape or GenAI's), and capped in size.

/** Characters of content kept per side (input, output): text, tool arguments and results. */
export const MAX_CONTENT_CHARS = 32_768;
/** Characters of structure kept per side besides: keys, roles, part types, tool names and ids. */
export const MAX_STRUCTURE_CHARS = 16_384;
/** Keys whose text values are structure, not content. */
const STRUCTURE_KEYS = new Set(['type', 'id', 'name', 'role']);
/** Messages kept per side. */
export const MAX_MESSAGES = 500;

/** A part: {type: 'text', content}, {type: 'tool_call', id, name, arguments}, {type: 'tool_call_response', id, response}, or another type as sent. */
export const messagePartSchema = z.record(z.unknown());
export const messageSchema = z.object({ role: z.string(), parts: z.array(messagePartSchema), finish_reason: z.string().optional() });
export type MessagePart = z.infer<typeof messagePartSchema>;
export type Message = z.infer<typeof messageSchema>;

const MESSAGE_KEYS = new Set(['role', 'parts', 'finish_reason']);
const isMessage = (m: unknown) =>
  isPlainObject(m) &&
  typeof m.role === 'string' &&
  Array.isArray(m.parts) &&
  m.parts.every((p) => isPlainObject(p) && !Object.hasOwn(p, '__proto__')) &&
  (m.finish_reason === undefined || typeof m.finish_reason === 'string') &&
  Object.keys(m).every((k) => MESSAGE_KEYS.has(k));
/** messageSchema's check of a list without zod (the consumers' fast decode), for lists zod would take unchanged. */
export const isMessageList = (v: unknown) => Array.isArray(v) && v.every(isMessage);

const text = (content: string): MessagePart => ({ type: 'text', content });

/** OpenAI's text part ({type: 'text', text}) in GenAI's spelling; any other part as it is. */
function partOf(p: Record<string, unknown>): MessagePart {
  if (p.type === 'text' && typeof p.text === 'string' && p.content === undefined) return text(p.text);
  return p;
}

/** A tool call in OpenAI's shape ({id, function: {name, arguments}}) or GenAI's ({id, name, arguments}). */
function toolCall(c: unknown): MessagePart | undefined {
  if (!isPlainObject(c)) return undefined;
  const fn = isPlainObject(c.function) ? c.function : c;
  return { type: 'tool_call', ...(typeof c.id === 'string' ? { id: c.id } : {}), name: typeof fn.name === 'string' ? fn.name : '', arguments: fn.arguments ?? null };
}

function contentParts(content: unknown): MessagePart[] {
  if (content === undefined || content === null || content === '') return [];
  if (typeof content === 'string') return [text(content)];
  if (Array.isArray(content)) return content.flatMap((p) => (typeof p === 'string' ? [text(p)] : isPlainObject(p) ? [partOf(p)] : []));
  return [text(JSON.stringify(content))];
}

/** One message in any shape devtrail reads (`role` when it names none); undefined for a value that is not one. */
function messageOf(m: unknown, role: string): Message | undefined {
  if (typeof m === 'string') return { role, parts: [text(m)] };
  if (!isPlainObject(m)) return undefined;
  const r = typeof m.role === 'string' && m.role !== '' ? m.role : role;
  let parts: MessagePart[];
  if (Array.isArray(m.parts)) parts = m.parts.filter(isPlainObject).map(partOf);
  else if (typeof m.tool_call_id === 'string')
    parts = [{ type: 'tool_call_response', id: m.tool_call_id, response: m.content ?? null }]; // OpenAI's tool result
  else parts = contentParts(m.content);
  if (Array.isArray(m.tool_calls)) for (const c of m.tool_calls) parts.push(...[toolCall(c)].filter((p) => p !== undefined));
  const out: Message = { role: r, parts };
  if (typeof m.finish_reason === 'string') out.finish_reason = m.finish_reason;
  return out;
}

/** A conversation side in any shape: text (one message of `role`), one message, or a list of them. */
export function toMessages(v: unknown, role: string): Message[] {
  if (v === undefined || v === null || v === '') return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((m) => messageOf(m, role)).filter((m) => m !== undefined);
}

/** An attribute's text: the JSON it holds (bounded in depth), else the text itself. */
export function parseContent(s: string): unknown {
  const t = s.trimStart();
  if (!t.startsWith('[') && !t.startsWith('{')) return s;
  try {
    const v: unknown = JSON.parse(s);
    return jsonDepth(v, MAX_JSON_DEPTH) > MAX_JSON_DEPTH ? s : v;
  } catch {
    return s;
  }
}

interface Budget {
  /** Content characters left. */
  left: number;
  /** Structure characters left: keys and the short labels around the content. */
  structure: number;
  cut: boolean;
}

const spent = (b: Budget) => b.left <= 0 || b.structure <= 0;

/** A JSON value within the budget: content strings cut where it runs out (marked …), later items and keys left out. */
function within(v: unknown, b: Budget): unknown {
  if (typeof v === 'string') {
    if (v.length <= b.left) {
      b.left -= v.length;
      return v;
    }
    b.cut = true;
    let s = v.slice(0, Math.max(0, b.left));
    if (/[\uD800-\uDBFF]$/.test(s)) s = s.slice(0, -1); // never half a surrogate pair
    b.left = 0;
    return `${s}…`;
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      if (spent(b)) {
        b.cut = true;
        break;
      }
      out.push(within(x, b));
    }
    return out;
  }
  if (isPlainObject(v)) {
    const out: Array<[string, unknown]> = [];
    for (const [k, x] of Object.entries(v)) {
      if (spent(b)) {
        b.cut = true;
        break;
      }
      b.structure -= k.length;
      out.push([k, label(k, x, b) ?? within(x, b)]);
    }
    return Object.fromEntries(out); // own keys, "__proto__" included, as JSON.parse makes them
  }
  b.left -= String(v).length;
  return v;
}

/** A structure key's text value (a part's type, a tool's name), kept whole and counted as structure. */
function label(key: string, v: unknown, b: Budget): string | undefined {
  if (!STRUCTURE_KEYS.has(key) || typeof v !== 'string') return undefined;
  b.structure -= v.length;
  return v;
}

/**
 * The messages within MAX_CONTENT_CHARS of content (MAX_STRUCTURE_CHARS of structure) and
 * MAX_MESSAGES, in order: the message where a cap falls is cut there and later ones are left
 * out; `truncated` says whether anything was.
 */
export function capMessages(messages: Message[], max = MAX_CONTENT_CHARS): { messages: Message[]; truncated: boolean } {
  const b: Budget = { left: max, structure: MAX_STRUCTURE_CHARS, cut: messages.length > MAX_MESSAGES };
  const out: Message[] = [];
  for (const m of messages.slice(0, MAX_MESSAGES)) {
    if (spent(b)) {
      b.cut = true;
      break;
    }
    b.structure -= m.role.length;
    const kept: Message = { role: m.role, parts: within(m.parts, b) as MessagePart[] };
    if (m.finish_reason !== undefined) kept.finish_reason = m.finish_reason;
    out.push(kept);
  }
  return { messages: out, truncated: b.cut };
}
