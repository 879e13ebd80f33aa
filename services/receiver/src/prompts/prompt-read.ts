import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PROMPT_READ_PATH } from '@devtrail/kinds';
import { notFound } from '@devtrail/http';
import { json, type ApiDocs } from '@devtrail/http/api-docs';
import { PROMPT_CHANGED_CHANNEL, PROMPT_LIMITS, promptsRepo, type PromptVersion, type RelationalStore } from '@devtrail/relational-store';
import type { Metrics } from '@devtrail/metrics';
import { PROMPT_CACHE_TTL_MS, PromptCache } from './prompt-cache.ts';

// The SDK's getPrompt (docs/sdk.md): one version of a prompt read with the project's ingest key,
// by label (production by default) or number. Served by the receiver, inside the ingest scope
// (ingest-routes.ts: the key, the browser's Origin and the key's rate limit are checked first),
// so the same URL answers in the embedded process and on a split stack. A holder of the ingest
// key, which ships in browsers, can read every prompt of the project: docs/security.md.

const L = PROMPT_LIMITS;
export const promptReadParams = z.object({ name: z.string().regex(L.NAME_PATTERN) });
/** label (default production; latest is the newest version) or version; version wins when both are given. */
export const promptReadQuery = z.object({
  label: z.string().regex(L.LABEL_PATTERN).optional(),
  version: z
    .string()
    .regex(/^[0-9]{1,4}$/)
    .transform(Number)
    .optional(),
});

export const promptReadAnswer = (v: PromptVersion) => ({ name: v.name, version: v.version, type: v.type, prompt: v.content, config: v.config, labels: v.labels });

const keyOf = (projectId: string, rest = '') => `${projectId}\n${rest}`;

/** Where prompts are read from, and the process's metrics (the reads are counted by result). */
export interface PromptReadDeps {
  relational: RelationalStore;
  metrics: Metrics;
}

export async function registerPromptRead(app: FastifyInstance, { relational, metrics }: PromptReadDeps): Promise<void> {
  const repo = promptsRepo(relational);
  const cache = new PromptCache<PromptVersion | null>(Date.now, (result) => metrics.m.promptReads.inc({ result }));
  // A prompt written or a label moved in the dashboard drops the project's cached reads at once;
  // notices missed while the connection was lost drop them all.
  const unlisten = await relational.listen(
    PROMPT_CHANGED_CHANNEL,
    (projectId) => cache.evictPrefix(keyOf(projectId)),
    () => cache.clear(),
  );
  app.addHook('onClose', async () => unlisten());
  app.get(`${PROMPT_READ_PATH}/:name`, async (request) => {
    const { name } = promptReadParams.parse(request.params);
    const q = promptReadQuery.parse(request.query);
    const ref = q.version !== undefined ? { version: q.version } : { label: q.label ?? L.DEFAULT_LABEL };
    const projectId = request.grant!.projectId;
    const v = await cache.get(keyOf(projectId, `${name}\n${'version' in ref ? `#${ref.version}` : ref.label}`), () => repo.version(projectId, name, ref));
    if (!v) throw notFound('Prompt');
    return promptReadAnswer(v);
  });
}

export function documentPromptRead({ registry, errorResponse, validationError }: ApiDocs) {
  registry.registerPath({
    method: 'get',
    path: `${PROMPT_READ_PATH}/{name}`,
    tags: ['prompts (SDK)'],
    summary: 'One version of a prompt, by label (default production) or number, read with the project API key',
    description: `What the SDK's getPrompt fetches; version wins over label when both are given. Cached by the receiver for ${PROMPT_CACHE_TTL_MS / 1000} s per project, name and label or version; counted against the key's rate limit. Anyone holding the ingest key can read the project's prompts (docs/security.md).`,
    security: [{ apiKey: [] }],
    request: {
      params: promptReadParams,
      query: z.object({
        label: z.string().regex(L.LABEL_PATTERN).optional(),
        version: z
          .string()
          .regex(/^[0-9]{1,4}$/)
          .optional(),
      }),
    },
    responses: {
      200: {
        description: 'The version',
        ...json(
          z.object({
            name: z.string(),
            version: z.number().int(),
            type: z.enum(['text', 'chat']),
            prompt: z.union([z.string(), z.array(z.object({ role: z.string(), content: z.string() }))]),
            config: z.record(z.unknown()),
            labels: z.array(z.string()),
          }),
        ),
      },
      400: { description: 'Invalid name, label or version.', ...json(validationError) },
      401: errorResponse('Missing or invalid API key.', 'Missing or invalid API key'),
      404: errorResponse('No prompt of that name, or no version with that label or number.', 'Prompt not found'),
    },
  });
  return { name: 'prompts (SDK)', description: "Read a prompt with the project's ingest key (the SDK's getPrompt)." };
}
