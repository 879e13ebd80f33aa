import { describe, expect, it } from 'vitest';
import { capMessages, llmToEvent, llmUsageSchema, MAX_CONTENT_CHARS, spanConversation, toMessages } from '@devtrail/kinds';

// An LLM call's conversation in one shape whichever way it came (docs/otlp.md, "Conversation"),
// and its cap. The end-to-end proof (the OpenTelemetry SDK, /ingest/llm, the read API, Chromium)
// is test/e2e/llm-conversation.test.ts.

const kv = (key: string, v: string) => ({ key, value: { stringValue: v } });
const toolTurn = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: '18°C' },
];
const GENAI_TOOL_TURN = [
  { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
  { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
  { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }] },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '18°C' }] },
];

describe('messages', () => {
  it("OpenAI's chat shape (text parts, tool calls, tool results) becomes GenAI's", () => {
    expect(toMessages(toolTurn, 'user')).toEqual(GENAI_TOOL_TURN);
  });

  it("GenAI's shape is kept as it is; text is one message of the side's role", () => {
    expect(toMessages(GENAI_TOOL_TURN, 'user')).toEqual(GENAI_TOOL_TURN);
    expect(toMessages('Hi', 'assistant')).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Hi' }] }]);
  });

  it('past the cap, the message where it falls is cut (marked …) and later ones are left out', () => {
    const long = 'x'.repeat(MAX_CONTENT_CHARS);
    const r = capMessages(toMessages(['short', long, 'after'], 'user'));
    expect(r.truncated).toBe(true);
    expect(r.messages).toHaveLength(2);
    const cut = r.messages[1].parts[0].content as string;
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThan(MAX_CONTENT_CHARS);
    expect(capMessages(toMessages(['short'], 'user')).truncated).toBe(false);
  });

  it('the cap counts content only: a prompt of exactly the cap is kept whole, one more character is cut', () => {
    const exact = 'y'.repeat(MAX_CONTENT_CHARS);
    const whole = capMessages(toMessages([{ role: 'system', content: exact }], 'user'));
    expect(whole.truncated).toBe(false);
    expect(whole.messages[0].parts[0].content).toBe(exact);
    const split = capMessages(
      toMessages(
        [
          { role: 'system', content: 'y'.repeat(MAX_CONTENT_CHARS / 2) },
          { role: 'user', content: 'y'.repeat(MAX_CONTENT_CHARS / 2) },
        ],
        'user',
      ),
    );
    expect(split.truncated).toBe(false);
    const over = capMessages(toMessages([{ role: 'user', content: `${exact}z` }], 'user'));
    expect(over.truncated).toBe(true);
    expect(over.messages[0].parts[0].content).toBe(`${exact}…`);
  });

  it('structure has a bound of its own: many empty parts are cut too', () => {
    const parts = Array.from({ length: 10_000 }, () => ({ type: 'text', content: '' }));
    const r = capMessages([{ role: 'user', parts }]);
    expect(r.truncated).toBe(true);
    expect(r.messages[0].parts.length).toBeLessThan(parts.length);
  });

  it('a cut never leaves half a surrogate pair', () => {
    const r = capMessages(toMessages(['😀'.repeat(10)], 'user'), 7); // 7 UTF-16 units of text: 3 emoji and half of one
    const cut = r.messages[0].parts[0].content as string;
    expect(cut).toBe(`${'😀'.repeat(3)}…`);
  });

  it('/ingest/llm takes input and output in either shape and stores them capped', () => {
    const body = llmUsageSchema.parse({
      model: 'm',
      provider: 'p',
      operation: 'chat',
      input_tokens: 1,
      output_tokens: 1,
      latency_ms: 1,
      input: toolTurn,
      output: 'Sunny.',
    });
    const e = llmToEvent(body, '2026-01-01T00:00:00.000Z');
    expect(e.input).toEqual(GENAI_TOOL_TURN);
    expect(e.output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Sunny.' }] }]);
    expect(e.content_truncated).toBe(false);
    expect(llmUsageSchema.safeParse({ ...body, input: [{ content: 'no role' }] }).success).toBe(false);
  });
});

describe('a GenAI span’s conversation', () => {
  const QA = { input: [{ role: 'user', parts: [{ type: 'text', content: 'Q' }] }], output: [{ role: 'assistant', parts: [{ type: 'text', content: 'A' }] }] };

  it('current attributes, with the system instructions first', () => {
    const a = {
      'gen_ai.system_instructions': '[{"type":"text","content":"Be brief."}]',
      'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"Q"}]}]',
      'gen_ai.output.messages': '[{"role":"assistant","parts":[{"type":"text","content":"A"}],"finish_reason":"stop"}]',
    };
    expect(spanConversation(a, [])).toEqual({
      input: [{ role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] }, ...QA.input],
      output: [{ ...QA.output[0], finish_reason: 'stop' }],
    });
  });

  it('the older gen_ai.prompt / gen_ai.completion, as JSON or text', () => {
    expect(spanConversation({ 'gen_ai.prompt': '[{"role":"user","content":"Q"}]', 'gen_ai.completion': 'A' }, [])).toEqual(QA);
  });

  it("OpenLLMetry's indexed attributes, in index order, with tool calls", () => {
    const a = {
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': 'Q',
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'S',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.tool_calls.0.id': 'c1',
      'gen_ai.completion.0.tool_calls.0.name': 'weather',
      'gen_ai.completion.0.tool_calls.0.arguments': '{}',
      'gen_ai.completion.0.finish_reason': 'tool_calls',
    };
    expect(spanConversation(a, [])).toEqual({
      input: [{ role: 'system', parts: [{ type: 'text', content: 'S' }] }, ...QA.input],
      output: [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: '{}' }], finish_reason: 'tool_calls' }],
    });
  });

  it('events: the content attributes on an event, or one event per message', () => {
    const details = [
      {
        name: 'gen_ai.client.inference.operation.details',
        attributes: [kv('gen_ai.input.messages', JSON.stringify(QA.input)), kv('gen_ai.output.messages', JSON.stringify(QA.output))],
      },
    ];
    expect(spanConversation({}, details)).toEqual(QA);
    const older = [
      { name: 'gen_ai.content.prompt', attributes: [kv('gen_ai.prompt', 'Q')] },
      { name: 'gen_ai.content.completion', attributes: [kv('gen_ai.completion', 'A')] },
    ];
    expect(spanConversation({}, older)).toEqual(QA);
    const perMessage = [
      { name: 'gen_ai.user.message', attributes: [kv('content', 'Q')] },
      { name: 'gen_ai.choice', attributes: [kv('message', '{"content":"A"}')] },
    ];
    expect(spanConversation({}, perMessage)).toEqual(QA);
  });
});
