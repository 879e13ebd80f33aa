import { z } from 'zod';
import { pgText } from '@devtrail/http';
import { PROMPT_LIMITS } from '@devtrail/relational-store';
import { queryInt, rangeOnlyQuery } from '../api/api-schemas.ts';
import { projectAnd } from '../api/project-route.ts';

// The prompt API's inputs (docs/api.md, "Prompts"), bounded by the registry's limits
// (libs/relational-store prompts/prompt-limits.ts). Content and config sizes are counted by
// the handler (a 413), not here, so an oversized prompt is told apart from a malformed one.

const L = PROMPT_LIMITS;
export const promptName = z
  .string()
  .regex(L.NAME_PATTERN, 'a letter or digit, then letters, digits, ".", "_" or "-"; at most 100 characters')
  .openapi({ example: 'support-answer', description: 'Letters, digits, ".", "_" and "-", 1 to 100 characters, unique in the project.' });
export const promptLabel = z
  .string()
  .regex(L.LABEL_PATTERN, 'lower-case letters, digits, ".", "_" or "-", starting with a letter or digit; at most 36 characters')
  .openapi({ example: 'production' });
/** A label that can be set or removed: any but latest, which always names the newest version (a pattern, so the document says it). */
export const movableLabel = z
  .string()
  .regex(new RegExp(`^(?!${L.LATEST_LABEL}$)${L.LABEL_PATTERN.source.slice(1)}`), `a label as above, but not ${L.LATEST_LABEL}: it always names the newest version`)
  .openapi({ example: 'production' });

/** JSON PostgreSQL's jsonb can hold: no NUL and no lone surrogate, which JSON.stringify writes as escapes. */
const UNSTORABLE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;
const storable = { message: 'must not contain NUL (U+0000) or unpaired surrogate characters' };
export const storableJson = (v: unknown) => !UNSTORABLE.test(JSON.stringify(v));

export const chatMessage = z
  .object({ role: z.string().min(1).max(50).openapi({ example: 'system' }), content: z.string() })
  .strict()
  .openapi('PromptChatMessage');

export const newVersionBody = z
  .object({
    name: promptName,
    prompt: z.union([z.string(), z.array(chatMessage).max(L.MAX_CHAT_MESSAGES)]).refine(storableJson, storable),
    config: z.record(z.unknown()).refine(storableJson, storable).default({}),
    commit_message: pgText().max(L.MAX_COMMIT_MESSAGE_CHARS).nullable().default(null),
    labels: z.array(movableLabel).max(L.MAX_LABELS_PER_PROMPT).default([]),
  })
  .strict();
/** A string is a text prompt, an array of messages a chat prompt. */
export const typeOf = (prompt: string | unknown[]) => (typeof prompt === 'string' ? ('text' as const) : ('chat' as const));

export const promptParams = projectAnd(z.object({ name: promptName }));
export const versionParams = projectAnd(z.object({ name: promptName, version: queryInt(1, L.MAX_VERSIONS_PER_PROMPT) }));
export const labelParams = projectAnd(z.object({ name: promptName, label: movableLabel }));
export const labelBody = z.object({ version: z.number().int().min(1).max(L.MAX_VERSIONS_PER_PROMPT) }).strict();
export const comparisonQuery = rangeOnlyQuery;
