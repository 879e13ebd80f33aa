import { z } from 'zod';
import { sameKeys } from '@devtrail/http/api-docs';
import type { Prompt, PromptSummary, PromptVersion, PromptVersionInfo } from '@devtrail/relational-store';
import { chatMessage } from './prompt-schemas.ts';

// The prompt API's answers (docs/api.md, "Prompts"): the schemas the document shows and the
// functions that make the JSON from the registry's records, held to the same keys.

const labels = z
  .record(z.number().int())
  .openapi({ description: 'Each label and the version it names; latest is always the newest.', example: { latest: 3, production: 2 } });

export const promptSummarySchema = z
  .object({
    name: z.string(),
    type: z.enum(['text', 'chat']),
    latest_version: z.number().int(),
    labels,
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('PromptSummary');
export const summaryJson = (p: PromptSummary) => ({
  name: p.name,
  type: p.type,
  latest_version: p.latestVersion,
  labels: p.labels,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});
sameKeys<z.infer<typeof promptSummarySchema>, ReturnType<typeof summaryJson>>(true);

const versionInfoSchema = z
  .object({
    version: z.number().int(),
    commit_message: z.string().nullable(),
    created_by: z.string().openapi({ description: "Who made it: a user's name, or operator token." }),
    created_at: z.string().datetime(),
    labels: z.array(z.string()).openapi({ description: 'The labels naming this version, latest included.' }),
  })
  .openapi('PromptVersionInfo');
export const versionInfoJson = (v: PromptVersionInfo) => ({
  version: v.version,
  commit_message: v.commitMessage,
  created_by: v.createdBy,
  created_at: v.createdAt,
  labels: v.labels,
});
sameKeys<z.infer<typeof versionInfoSchema>, ReturnType<typeof versionInfoJson>>(true);

export const promptSchema = promptSummarySchema.extend({ versions: z.array(versionInfoSchema).openapi({ description: 'Newest first.' }) }).openapi('Prompt');
export const promptJson = (p: Prompt) => ({ ...summaryJson(p), versions: p.versions.map(versionInfoJson) });

export const versionSchema = versionInfoSchema
  .extend({
    name: z.string(),
    type: z.enum(['text', 'chat']),
    prompt: z.union([z.string(), z.array(chatMessage)]).openapi({ description: 'The text, or the chat messages; {{variables}} as written.' }),
    config: z.record(z.unknown()).openapi({ description: 'As saved (model, temperature, ...).', example: { model: 'gpt-4o-mini', temperature: 0.2 } }),
  })
  .openapi('PromptVersion');
export const versionJson = (v: PromptVersion) => ({ ...versionInfoJson(v), name: v.name, type: v.type, prompt: v.content, config: v.config });
sameKeys<z.infer<typeof versionSchema>, ReturnType<typeof versionJson>>(true);
