import { describe, expect, it } from 'vitest';
import { isConversationKey, llmToEvent, llmUsageSchema } from '@devtrail/kinds';
import { compileScrubber, dropContent, FILTERED, parsePayloads, scrubbingSchema, scrubEvents } from '../src/index.ts';

// A GenAI span and an LLM call at the door (docs/data.md, "LLM content and attribution"): with
// content capture off no spelling of a conversation stays; with it on, tool arguments and results
// sent as JSON text are scrubbed by key like an object.

const secrets = { password: 'hunter2-secret', token: 'tok-very-secret' };
const argsText = JSON.stringify({ city: 'Paris', ...secrets });

/** A GenAI span's metadata as span/otlp.ts writes it: its attributes, and its events' summaries. */
const genAiSpan = () => ({
  service: 'chat',
  metadata: {
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.prompt': 'What is the weather in Paris? My password is hunter2-secret',
    'gen_ai.completion': 'Sunny.',
    'gen_ai.prompt.0.role': 'user',
    'gen_ai.prompt.0.content': 'tell me the weather',
    'gen_ai.prompt.1.tool_calls.0.arguments': argsText,
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hello there' }] }]),
    'gen_ai.tool.call.arguments': argsText,
    'gen_ai.tool.call.result': JSON.stringify({ forecast: 'sun', ...secrets }),
    'traceloop.entity.input': '{"question":"private question"}',
    'traceloop.entity.output': 'private answer',
    'traceloop.entity.name': 'weather-agent',
    'llm.prompts': 'a prompt',
    'llm.input_messages.0.message.content': 'an OpenInference message',
    'input.value': 'an OpenInference input',
    'ai.prompt': 'a Vercel AI SDK prompt',
    'ai.toolCall.args': argsText,
    'otel.events': [
      { name: 'gen_ai.user.message', timestamp: '', attributes: { content: 'a message event' } },
      { name: 'gen_ai.choice', timestamp: '', attributes: { message: '{"content":"a choice"}', finish_reason: 'stop' } },
      { name: 'gen_ai.content.prompt', timestamp: '', attributes: { 'gen_ai.prompt': 'an event prompt' } },
      { name: 'exception', timestamp: '', attributes: { 'exception.type': 'Err' } },
    ],
  },
});

const TEXTS = ['hunter2', 'tell me', 'hello there', 'private', 'a prompt', 'OpenInference', 'Vercel', 'message event', 'a choice', 'event prompt', 'Sunny'];

describe('content capture off', () => {
  it('keeps no conversation on a span, in any spelling, and the rest of its attributes', () => {
    const span = genAiSpan();
    dropContent('span', [span]);
    const text = JSON.stringify(span);
    for (const t of TEXTS) expect(text, t).not.toContain(t);
    expect(span.metadata).toMatchObject({ 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 12, 'traceloop.entity.name': 'weather-agent' });
    expect(span.metadata['otel.events']).toEqual([
      { name: 'gen_ai.user.message', timestamp: '', attributes: {} },
      { name: 'gen_ai.choice', timestamp: '', attributes: {} },
      { name: 'gen_ai.content.prompt', timestamp: '', attributes: {} },
      { name: 'exception', timestamp: '', attributes: { 'exception.type': 'Err' } },
    ]);
  });

  it("keeps no conversation on an LLM call: its messages, and its metadata's conversation keys", () => {
    const call = llmToEvent(
      llmUsageSchema.parse({
        model: 'm',
        provider: 'p',
        operation: 'chat',
        input_tokens: 1,
        output_tokens: 1,
        latency_ms: 1,
        metadata: { feature: 'search', 'traceloop.entity.input': 'private question', 'llm.prompts.0.content': 'a prompt' },
        input: [{ role: 'user', content: 'hello there' }],
        output: 'Sunny.',
      }),
      new Date().toISOString(),
    );
    dropContent('llm', [call]);
    expect(call).toMatchObject({ input: [], output: [], metadata: { feature: 'search' } });
    expect(JSON.stringify(call)).not.toMatch(/private|a prompt|hello|Sunny/);
  });

  it('knows the spellings by key, not by a prefix that would take attribution with it', () => {
    for (const k of ['gen_ai.prompt', 'gen_ai.completion.3.content', 'traceloop.entity.input', 'llm.output_messages.0.message.content', 'output.value'])
      expect(isConversationKey(k), k).toBe(true);
    for (const k of ['gen_ai.request.model', 'gen_ai.usage.output_tokens', 'traceloop.entity.name', 'traceloop.workflow.name', 'llm.model_name', 'session.id'])
      expect(isConversationKey(k), k).toBe(false);
  });
});

describe('tool arguments and results are data', () => {
  const scrubber = compileScrubber(scrubbingSchema.parse({}), 'salt')!;

  it('on a span: arguments and results given as JSON text are parsed and their secret keys filtered', () => {
    const span = genAiSpan();
    parsePayloads('span', [span]);
    scrubEvents('span', [span], scrubber);
    const m = span.metadata as Record<string, unknown>;
    for (const k of ['gen_ai.prompt.1.tool_calls.0.arguments', 'gen_ai.tool.call.arguments', 'ai.toolCall.args'])
      expect(m[k], k).toEqual({ city: 'Paris', password: FILTERED, token: FILTERED });
    expect(m['gen_ai.tool.call.result']).toEqual({ forecast: 'sun', password: FILTERED, token: FILTERED });
    expect(m['traceloop.entity.output']).toBe('private answer'); // not JSON: kept as text
    expect(JSON.stringify(span)).not.toMatch(/tok-very-secret/);
  });

  it("on an LLM call: OpenAI's function.arguments, GenAI's tool_call parts and a tool's result", () => {
    const call = llmToEvent(
      llmUsageSchema.parse({
        model: 'm',
        provider: 'p',
        operation: 'chat',
        input_tokens: 1,
        output_tokens: 1,
        latency_ms: 1,
        input: [
          { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: argsText } }] },
          { role: 'tool', tool_call_id: 'c1', content: JSON.stringify({ ok: true, ...secrets }) },
          { role: 'assistant', parts: [{ type: 'tool_call', id: 'c2', name: 'login', arguments: argsText }] },
          { role: 'assistant', parts: [{ type: 'tool_call', id: 'c3', name: 'echo', arguments: 'not json {' }] },
        ],
      }),
      new Date().toISOString(),
    );
    parsePayloads('llm', [call]);
    scrubEvents('llm', [call], scrubber);
    const parts = call.input.flatMap((m) => m.parts);
    expect(parts[0]).toEqual({ type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Paris', password: FILTERED, token: FILTERED } });
    expect(parts[1]).toEqual({ type: 'tool_call_response', id: 'c1', response: { ok: true, password: FILTERED, token: FILTERED } });
    expect(parts[2]).toMatchObject({ arguments: { city: 'Paris', password: FILTERED, token: FILTERED } });
    expect(parts[3]).toMatchObject({ arguments: 'not json {' });
    expect(JSON.stringify(call)).not.toMatch(/hunter2|tok-very-secret/);
  });
});
