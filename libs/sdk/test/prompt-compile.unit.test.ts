import { describe, expect, it } from 'vitest';
import { Prompt } from '../src/prompts/prompt.js';

// prompt.compile and the metadata a prompt links a call with (docs/sdk.md#prompts).
describe('Prompt', () => {
  const text = new Prompt({ name: 'greet', version: 3, type: 'text', prompt: 'Hi {{name}}, {{ name }} again; {{missing}} {{n}}', config: {}, labels: ['production'] });

  it('fills every {{variable}} given, with or without spaces, and leaves the others as written', () => {
    expect(text.compile({ name: 'Ada', n: 0 })).toBe('Hi Ada, Ada again; {{missing}} 0');
    expect(text.compile()).toBe(text.prompt);
  });

  it('compiles each message of a chat prompt, keeping its role', () => {
    const chat = new Prompt({ name: 'c', version: 1, type: 'chat', prompt: [{ role: 'system', content: 'You are {{persona}}' }], config: {}, labels: [] });
    expect(chat.compile({ persona: 'terse' })).toEqual([{ role: 'system', content: 'You are terse' }]);
  });

  it('links a call by name and version; a fallback by name only', () => {
    expect(text.attributes).toEqual({ 'prompt.name': 'greet', 'prompt.version': 3 });
    expect(new Prompt({ ...text, version: 0 }, true).attributes).toEqual({ 'prompt.name': 'greet' });
  });
});
