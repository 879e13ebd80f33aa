// How a call names the prompt version it used (docs/otlp.md, "Prompts"): metadata keys written
// by devtrail's SDK (prompt.name, prompt.version), by Langfuse's SDKs (v2 and its OpenTelemetry
// spans), by OpenLLMetry, and the GenAI semantic conventions' gen_ai.prompt.name (which has no
// version). OTLP spans keep these attributes in the call's metadata by default (otlp.ts), and the
// reads take the first key of each list a call carries.

/** Metadata keys of the prompt's name, in the order the reads prefer them. */
export const PROMPT_NAME_KEYS = ['prompt.name', 'langfuse.observation.prompt.name', 'langfuse.prompt.name', 'traceloop.prompt.key', 'gen_ai.prompt.name'] as const;
/** Metadata keys of the prompt's version number. */
export const PROMPT_VERSION_KEYS = ['prompt.version', 'langfuse.observation.prompt.version', 'langfuse.prompt.version', 'traceloop.prompt.version'] as const;
/** Span attributes every OTLP GenAI call keeps in its metadata (besides the project's metadata_attributes). */
export const PROMPT_ATTRIBUTES: readonly string[] = [...PROMPT_NAME_KEYS, ...PROMPT_VERSION_KEYS];

/** Where the SDK reads a prompt with the project's ingest key: GET <base>/ingest/prompts/<name>?label=|version= (docs/api.md, "Read a prompt with the ingest key"). */
export const PROMPT_READ_PATH = '/ingest/prompts';
