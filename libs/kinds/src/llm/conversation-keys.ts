import { isPlainObject } from '../checks.ts';
import { jsonDepth } from '../json-depth.ts';
import { MAX_JSON_DEPTH } from '../request-fields.ts';

// Where a conversation's text sits in span and call attributes, in every spelling devtrail knows
// (docs/data.md, "LLM content and attribution"): GenAI's current and older attributes and its
// per-message events, OpenLLMetry (Traceloop), OpenInference, the Vercel AI SDK and MLflow. A
// project with content capture off keeps none of them; with it on, the tool calls' arguments and
// the tools' results they hold as JSON text are parsed, so scrubbing reads them by key.

const CONVERSATION = new Set([
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.prompt',
  'gen_ai.completion',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'traceloop.entity.input',
  'traceloop.entity.output',
  'llm.prompts',
  'llm.completions',
  'llm.input_messages',
  'llm.output_messages',
  'input.value',
  'output.value',
  'ai.prompt',
  'ai.prompt.messages',
  'ai.response.text',
  'ai.response.object',
  'ai.response.toolCalls',
  'ai.toolCall.args',
  'ai.toolCall.result',
  'mlflow.spanInputs',
  'mlflow.spanOutputs',
]);
const CONVERSATION_PREFIXES = [
  'gen_ai.prompt.',
  'gen_ai.completion.',
  'llm.prompts.',
  'llm.completions.',
  'llm.input_messages.',
  'llm.output_messages.',
  'llm.prompt_template.',
];

/** Names a prompt rather than holding its text (GenAI's gen_ai.prompt.name, prompt-link.ts): kept even with content capture off. */
const NOT_CONVERSATION = new Set(['gen_ai.prompt.name']);

/** Whether an attribute holds a conversation's text (a message, a prompt, a tool's arguments or result). */
export const isConversationKey = (key: string) => CONVERSATION.has(key) || (!NOT_CONVERSATION.has(key) && CONVERSATION_PREFIXES.some((p) => key.startsWith(p)));

/** Span events that are one message each: their attributes are the message. */
const MESSAGE_EVENT = /^gen_ai\.(system|user|assistant|tool)\.message$|^gen_ai\.choice$/;
export const isMessageEvent = (name: string) => MESSAGE_EVENT.test(name);

/** Where a span keeps its events' summaries (span/otlp.ts). */
const EVENTS = 'otel.events';

/** A span's or call's attributes without conversation: its keys, its message events' attributes, its other events' conversation keys. In place. */
export function dropConversation(o: Record<string, unknown>): void {
  for (const k of Object.keys(o)) if (isConversationKey(k)) delete o[k];
  const events = o[EVENTS];
  if (!Array.isArray(events)) return;
  for (const e of events) {
    if (!isPlainObject(e) || !isPlainObject(e.attributes)) continue;
    if (typeof e.name === 'string' && isMessageEvent(e.name)) e.attributes = {};
    else for (const k of Object.keys(e.attributes)) if (isConversationKey(k)) delete e.attributes[k];
  }
}

/** Keys whose text is a tool call's arguments or a tool's result (OpenAI's function.arguments, OpenLLMetry's tool_calls.M.arguments, ...). */
const TOOL_PAYLOAD = /(^|\.)(arguments|args|result|response)$/;
const holdsJsonText = (key: string) => TOOL_PAYLOAD.test(key) || isConversationKey(key);

/** A text that is a JSON object or array (bounded in depth), parsed; undefined otherwise. */
export function jsonOf(s: string): unknown {
  const t = s.trimStart();
  if (!t.startsWith('[') && !t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(s);
    return jsonDepth(v, MAX_JSON_DEPTH) > MAX_JSON_DEPTH ? undefined : v;
  } catch {
    return undefined;
  }
}

/**
 * Tool arguments, tool results and conversation attributes given as JSON text, at any depth,
 * replaced by the value they hold (text that is not JSON stays text), so that scrubbing reads
 * their keys as it reads an object's. In place; answers the value.
 */
export function parseJsonTexts(v: unknown, depth = 0): unknown {
  if (depth > MAX_JSON_DEPTH) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = parseJsonTexts(v[i], depth + 1);
    return v;
  }
  if (!isPlainObject(v)) return v;
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (typeof x === 'string') {
      if (!holdsJsonText(k)) continue;
      const parsed = jsonOf(x);
      if (parsed !== undefined) v[k] = parseJsonTexts(parsed, depth + 1);
    } else if (x !== null && typeof x === 'object') parseJsonTexts(x, depth + 1);
  }
  return v;
}
