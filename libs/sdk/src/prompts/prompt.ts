// A prompt version fetched from devtrail's prompt registry (docs/sdk.md#prompts): its content,
// config and labels, compiled with variables, and the metadata that links an LLM call to it.

/** The read path, a copy of the receiver's (test/contract-conformance.unit.test.ts holds them equal). */
export const PROMPT_READ_PATH = '/ingest/prompts';

export interface PromptMessage {
  role: string;
  content: string;
}

/** What the receiver answers for one version (docs/api.md, "Read a prompt with the ingest key"). */
export interface PromptData {
  name: string;
  /** 0 for a fallback: no version of the registry. */
  version: number;
  type: 'text' | 'chat';
  prompt: string | PromptMessage[];
  config: Record<string, unknown>;
  labels: string[];
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;
const fill = (text: string, vars: Record<string, unknown>) =>
  text.replace(VARIABLE, (whole, key: string) => (Object.hasOwn(vars, key) && vars[key] !== undefined && vars[key] !== null ? String(vars[key]) : whole));

export class Prompt<T extends string | PromptMessage[] = string | PromptMessage[]> {
  readonly name: string;
  readonly version: number;
  readonly type: 'text' | 'chat';
  readonly prompt: T;
  readonly config: Record<string, unknown>;
  readonly labels: string[];
  /** True when this is the `fallback` given to getPrompt (the registry could not be read): it links calls to no version. */
  readonly isFallback: boolean;

  constructor(data: PromptData, isFallback = false) {
    this.name = data.name;
    this.version = data.version;
    this.type = data.type;
    this.prompt = data.prompt as T;
    this.config = data.config;
    this.labels = data.labels;
    this.isFallback = isFallback;
  }

  /** The text (or messages) with each {{variable}} replaced; a variable not given stays as written. */
  compile(vars: Record<string, unknown> = {}): T {
    if (typeof this.prompt === 'string') return fill(this.prompt, vars) as T;
    return (this.prompt as PromptMessage[]).map((m) => ({ ...m, content: fill(m.content, vars) })) as T;
  }

  /**
   * Metadata (or OpenTelemetry span attributes) that link an LLM call to this version:
   * `prompt.name` and `prompt.version` (a fallback: the name only). llmUsage({ prompt }) adds them.
   */
  get attributes(): Record<string, string | number> {
    return this.isFallback ? { 'prompt.name': this.name } : { 'prompt.name': this.name, 'prompt.version': this.version };
  }
}
