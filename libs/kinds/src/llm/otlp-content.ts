import { attributesToObject, type SpanEvent } from '@devtrail/otlp';
import { isPlainObject } from '../checks.ts';
import { parseContent, toMessages, type Message } from './messages.ts';

// Where GenAI instrumentations put a call's messages (docs/otlp.md, "Conversation"), read in
// this order per side: the current attributes (gen_ai.input.messages, gen_ai.output.messages,
// gen_ai.system_instructions), the older gen_ai.prompt / gen_ai.completion, OpenLLMetry's
// indexed gen_ai.prompt.N.* / gen_ai.completion.N.*, then the span's events: the same
// attributes on gen_ai.client.inference.operation.details, gen_ai.content.prompt and
// gen_ai.content.completion, or one event per message (gen_ai.{system,user,assistant,tool}.message,
// gen_ai.choice).

const INPUT = 'gen_ai.input.messages';
const OUTPUT = 'gen_ai.output.messages';
const SYSTEM = 'gen_ai.system_instructions';
const PROMPT = 'gen_ai.prompt';
const COMPLETION = 'gen_ai.completion';
const INDEXED = /^gen_ai\.(prompt|completion)\.(\d{1,6})\.(.+)$/;
/** Events carrying the content attributes above. */
const CONTENT_EVENTS = new Set(['gen_ai.client.inference.operation.details', 'gen_ai.content.prompt', 'gen_ai.content.completion']);
const MESSAGE_EVENT = /^gen_ai\.(system|user|assistant|tool)\.message$/;
const CHOICE_EVENT = 'gen_ai.choice';

/** Whether an attribute holds message content (kept out of the call's metadata). */
export const isContentAttribute = (key: string) => key === INPUT || key === OUTPUT || key === SYSTEM || key === PROMPT || key === COMPLETION || INDEXED.test(key);

const parsed = (v: unknown) => (typeof v === 'string' ? parseContent(v) : v);

/** OpenLLMetry's gen_ai.prompt.0.role, gen_ai.prompt.0.tool_calls.1.name, ... as message objects in index order. */
function indexed(attrs: Record<string, unknown>, side: 'prompt' | 'completion'): Array<Record<string, unknown>> {
  const byIndex = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(attrs)) {
    const m = INDEXED.exec(key);
    if (!m || m[1] !== side) continue;
    const i = Number(m[2]);
    const msg = byIndex.get(i) ?? {};
    byIndex.set(i, msg);
    const call = /^tool_calls\.(\d{1,4})\.(id|name|arguments)$/.exec(m[3]);
    if (call) {
      const calls = (msg.tool_calls ??= []) as Array<Record<string, unknown>>;
      const c = (calls[Number(call[1])] ??= {});
      c[call[2]] = value;
    } else if (['role', 'content', 'tool_call_id', 'finish_reason'].includes(m[3])) msg[m[3]] = m[3] === 'content' ? parsed(value) : value;
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, msg]) => ({ ...msg, ...(Array.isArray(msg.tool_calls) ? { tool_calls: msg.tool_calls.filter(Boolean) } : {}) }));
}

/** The system instructions as one system message: GenAI's list of parts, or text. */
function systemMessage(v: unknown): Message[] {
  const p = parsed(v);
  return toMessages(Array.isArray(p) ? { role: 'system', parts: p } : p, 'system');
}

/** One side's messages from a set of attributes; empty when it has none. */
function fromAttributes(a: Record<string, unknown>, side: 'input' | 'output'): Message[] {
  if (side === 'input') {
    const system = a[SYSTEM] === undefined ? [] : systemMessage(a[SYSTEM]);
    if (a[INPUT] !== undefined) return [...system, ...toMessages(parsed(a[INPUT]), 'user')];
    if (a[PROMPT] !== undefined) return [...system, ...toMessages(parsed(a[PROMPT]), 'user')];
    return [...system, ...toMessages(indexed(a, 'prompt'), 'user')];
  }
  if (a[OUTPUT] !== undefined) return toMessages(parsed(a[OUTPUT]), 'assistant');
  if (a[COMPLETION] !== undefined) return toMessages(parsed(a[COMPLETION]), 'assistant');
  return toMessages(indexed(a, 'completion'), 'assistant');
}

/** A per-message event (gen_ai.user.message, gen_ai.choice, ...) as a message object. */
function eventMessage(name: string, a: Record<string, unknown>): { side: 'input' | 'output'; message: unknown } | undefined {
  const role = MESSAGE_EVENT.exec(name)?.[1];
  if (role) {
    const toolCalls = parsed(a.tool_calls);
    const message: Record<string, unknown> = { role: typeof a.role === 'string' ? a.role : role, content: parsed(a.content) };
    if (Array.isArray(toolCalls)) message.tool_calls = toolCalls;
    if (role === 'tool' && typeof a.id === 'string') message.tool_call_id = a.id;
    return { side: 'input', message };
  }
  if (name === CHOICE_EVENT) {
    const m = parsed(a.message);
    const message = isPlainObject(m) ? { role: 'assistant', ...m } : { role: 'assistant', content: m ?? parsed(a.content) };
    return { side: 'output', message: typeof a.finish_reason === 'string' ? { ...message, finish_reason: a.finish_reason } : message };
  }
  return undefined;
}

/** A GenAI span's conversation, uncapped (the kind's request caps it). */
export function spanConversation(attrs: Record<string, unknown>, events: readonly SpanEvent[] | null | undefined): { input: Message[]; output: Message[] } {
  // Content events fill in what the span's own attributes lack; per-message events come last.
  const merged: Record<string, unknown> = {};
  const perMessage = { input: [] as unknown[], output: [] as unknown[] };
  for (const e of events ?? []) {
    const name = e.name ?? '';
    if (!name.startsWith('gen_ai.')) continue;
    const a = attributesToObject(e.attributes);
    if (CONTENT_EVENTS.has(name)) {
      for (const [k, v] of Object.entries(a)) if (isContentAttribute(k) && merged[k] === undefined) merged[k] = v;
    } else {
      const m = eventMessage(name, a);
      if (m) perMessage[m.side].push(m.message);
    }
  }
  for (const [k, v] of Object.entries(attrs)) if (isContentAttribute(k)) merged[k] = v;
  const side = (s: 'input' | 'output') => {
    const fromAttrs = fromAttributes(merged, s);
    return fromAttrs.length > 0 ? fromAttrs : toMessages(perMessage[s], s === 'input' ? 'user' : 'assistant');
  };
  return { input: side('input'), output: side('output') };
}
