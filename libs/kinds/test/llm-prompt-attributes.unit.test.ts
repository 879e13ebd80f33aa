import { describe, expect, it } from 'vitest';
import { dropConversation, genAiUsage, PROMPT_ATTRIBUTES } from '@devtrail/kinds';

// The attributes that link a GenAI span's call to a prompt version (libs/kinds llm/prompt-link.ts)
// are kept in its metadata by default, whatever the project's metadata_attributes, and are not
// conversation: content capture off keeps them (docs/otlp.md, "Prompts").
describe('prompt attributes of OTLP GenAI spans', () => {
  const linked = {
    'prompt.name': 'greet',
    'prompt.version': 2,
    'langfuse.observation.prompt.name': 'greet',
    'langfuse.observation.prompt.version': 2,
    'langfuse.prompt.name': 'greet',
    'langfuse.prompt.version': 2,
    'traceloop.prompt.key': 'greet',
    'traceloop.prompt.version': 2,
    'gen_ai.prompt.name': 'greet',
  };

  it('keeps each of them in the call metadata by default, from the span or its resource', () => {
    const body = genAiUsage({ name: 'chat', durationMs: 5, attributes: { 'gen_ai.request.model': 'gpt-4o', ...linked } }, {});
    expect(body?.metadata).toMatchObject(linked);
    expect(Object.keys(linked).sort()).toEqual([...PROMPT_ATTRIBUTES].sort());
    const fromResource = genAiUsage(
      { name: 'chat', durationMs: 5, attributes: { 'gen_ai.request.model': 'gpt-4o' }, resource: { 'prompt.name': 'r', 'prompt.version': 1 } },
      {},
    );
    expect(fromResource?.metadata).toMatchObject({ 'prompt.name': 'r', 'prompt.version': 1 });
  });

  it('keeps them when the conversation is dropped', () => {
    const metadata: Record<string, unknown> = { ...linked, 'gen_ai.prompt.0.content': 'secret', 'gen_ai.prompt': 'secret' };
    dropConversation(metadata);
    expect(metadata).toEqual(linked);
  });
});
