import { z } from 'zod';
import { rangeOrDefault } from '@devtrail/column-store';
import { httpError, notFound } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import { PROMPT_LIMITS, promptsRepo, usersRepo, type PromptRefusal, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { actorOf } from '../api/actor.ts';
import { apiTimeRange } from '../api/api-schemas.ts';
import { answers, OPERATOR, projectParams, RANGE_NOTE } from '../api/project-route.ts';
import type { ReadDeps } from '../api/read-deps.ts';
import { promptJson, promptSchema, promptSummarySchema, summaryJson, versionJson, versionSchema } from './prompt-json.ts';
import { typeOf, comparisonQuery, labelBody, labelParams, newVersionBody, promptParams, versionParams } from './prompt-schemas.ts';
import { versionFigures, versionFiguresSchema } from './version-comparison.ts';

// The prompt registry (docs/api.md, "Prompts"): a project's prompts, their immutable versions,
// the labels naming them, and a version's calls beside the previous version's. Members write,
// viewers read (access.ts refuses a viewer's writes), another project's prompts are a 404.
// The SDK reads a prompt with the project's key from the receiver (services/receiver prompt-read.ts).

export type PromptDeps = ReadDeps & { relational: RelationalStore };

const L = PROMPT_LIMITS;
const REFUSALS: Record<PromptRefusal, { status: number; error: string }> = {
  too_many_prompts: { status: 409, error: `A project keeps at most ${L.MAX_PROMPTS_PER_PROJECT} prompts` },
  too_many_versions: { status: 409, error: `A prompt keeps at most ${L.MAX_VERSIONS_PER_PROMPT} versions` },
  too_many_labels: { status: 409, error: `A prompt has at most ${L.MAX_LABELS_PER_PROMPT} labels besides latest: remove one first` },
  type_changed: { status: 409, error: "A new version keeps the prompt's type (text or chat): use another name for the other type" },
  unknown_prompt: { status: 404, error: 'Prompt not found' },
  unknown_version: { status: 404, error: 'Prompt version not found' },
};
const refusal = (r: PromptRefusal) => httpError(REFUSALS[r].status, REFUSALS[r].error);
export const CONTENT_TOO_LARGE = `A version's prompt is at most ${L.MAX_CONTENT_CHARS} characters as JSON, its config at most ${L.MAX_CONFIG_CHARS}`;
const NOT_FOUND = { project: 'Project not found', prompt: REFUSALS.unknown_prompt.error };

export const PROMPT_PATHS = {
  prompts: '/api/projects/:id/prompts',
  prompt: '/api/projects/:id/prompts/:name',
  version: '/api/projects/:id/prompts/:name/versions/:version',
  comparison: '/api/projects/:id/prompts/:name/versions/:version/comparison',
  label: '/api/projects/:id/prompts/:name/labels/:label',
};

export const PROMPT_ROUTES: RouteGroup<PromptDeps> = {
  name: 'prompts',
  description: "A project's prompt registry: prompts, versions, labels, and a version's calls beside the previous one's; operator token or session (viewers read).",
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: PROMPT_PATHS.prompts,
      summary: "The project's prompts by name, with their labels",
      answers: answers(z.object({ prompts: z.array(promptSummarySchema) })),
      async handle(d, { projectId }) {
        return { prompts: (await promptsRepo(d.relational).list(projectId)).map(summaryJson) };
      },
    }),
    route({
      method: 'post',
      path: PROMPT_PATHS.prompts,
      summary: 'Add a version of a prompt (its first creates the prompt), with labels moved to it',
      body: newVersionBody,
      notes: {
        prompt: `A text prompt's text (a string), or a chat prompt's messages, at most ${L.MAX_CHAT_MESSAGES} {role, content} messages; {{variables}} are kept as written. A prompt keeps the type of its first version (409). At most ${L.MAX_CONTENT_CHARS} characters as JSON (413).`,
        config: `Any JSON object (model, temperature, ...), at most ${L.MAX_CONFIG_CHARS} characters as JSON (413).`,
        labels: `Labels moved to this version (production, staging, ...; not latest). A prompt has at most ${L.MAX_LABELS_PER_PROMPT}.`,
        commit_message: `At most ${L.MAX_COMMIT_MESSAGE_CHARS} characters.`,
      },
      answers: answers(
        z.object({ created: z.boolean().openapi({ description: 'Whether this version created the prompt.' }), version: versionSchema }),
        (docs) => ({
          409: docs.errorResponse("A bound is reached (prompts per project, versions per prompt, labels per prompt), or the type differs from the prompt's.", {
            prompts: REFUSALS.too_many_prompts.error,
            versions: REFUSALS.too_many_versions.error,
            labels: REFUSALS.too_many_labels.error,
            type: REFUSALS.type_changed.error,
          }),
          413: docs.errorResponse('The prompt or its config is too large.', CONTENT_TOO_LARGE),
        }),
        201,
      ),
      async handle(d, { projectId, body }, request, reply) {
        if (JSON.stringify(body.prompt).length > L.MAX_CONTENT_CHARS || JSON.stringify(body.config).length > L.MAX_CONFIG_CHARS) throw httpError(413, CONTENT_TOO_LARGE);
        const actor = await actorOf(request, usersRepo(d.relational));
        const r = await promptsRepo(d.relational).create(projectId, {
          name: body.name,
          type: typeOf(body.prompt),
          content: body.prompt,
          config: body.config,
          commitMessage: body.commit_message,
          labels: body.labels,
          createdBy: actor.name,
        });
        if (!r.ok) throw refusal(r.reason);
        return reply.code(201).send({ created: r.created, version: versionJson(r.version) });
      },
    }),
    route({
      method: 'get',
      path: PROMPT_PATHS.prompt,
      summary: 'A prompt with its labels and versions (newest first, without their content)',
      params: promptParams,
      answers: answers(z.object({ prompt: promptSchema }), (docs) => ({ 404: docs.errorResponse('Unknown project or prompt.', NOT_FOUND) })),
      async handle(d, { projectId, params }) {
        const p = await promptsRepo(d.relational).get(projectId, params.name);
        if (!p) throw notFound('Prompt');
        return { prompt: promptJson(p) };
      },
    }),
    route({
      method: 'get',
      path: PROMPT_PATHS.version,
      summary: 'One version of a prompt, with its content and config',
      params: versionParams,
      answers: answers(z.object({ version: versionSchema }), (docs) => ({
        404: docs.errorResponse('Unknown project, prompt or version.', { ...NOT_FOUND, version: REFUSALS.unknown_version.error }),
      })),
      async handle(d, { projectId, params }) {
        const v = await promptsRepo(d.relational).version(projectId, params.name, { version: params.version });
        if (!v) throw refusal('unknown_version');
        return { version: versionJson(v) };
      },
    }),
    route({
      method: 'get',
      path: PROMPT_PATHS.comparison,
      summary: "A version's calls, cost, tokens and latency beside the previous version's",
      description: RANGE_NOTE,
      params: versionParams,
      query: comparisonQuery,
      answers: answers(
        z.object({
          name: z.string(),
          from: z.number().int().openapi({ description: 'The range read, epoch milliseconds.' }),
          to: z.number().int(),
          version: versionFiguresSchema,
          previous: versionFiguresSchema.nullable().openapi({ description: 'The version before it; null for version 1.' }),
        }),
        (docs) => ({ 404: docs.errorResponse('Unknown project, prompt or version.', { ...NOT_FOUND, version: REFUSALS.unknown_version.error }) }),
      ),
      async handle(d, { projectId, params, query }) {
        const v = await promptsRepo(d.relational).version(projectId, params.name, { version: params.version });
        if (!v) throw refusal('unknown_version');
        const range = rangeOrDefault(apiTimeRange(query));
        const versions = v.version > 1 ? [v.version, v.version - 1] : [v.version];
        const [figures, previous] = await versionFigures(d, { projectId, prompt: v.name, versions, range });
        return { name: v.name, from: range.fromMs, to: range.toMs, version: figures, previous: previous ?? null };
      },
    }),
    route({
      method: 'put',
      path: PROMPT_PATHS.label,
      summary: 'Point a label at a version (moving it from the one it named)',
      params: labelParams,
      body: labelBody,
      answers: answers(z.object({ version: versionSchema }), (docs) => ({
        404: docs.errorResponse('Unknown project, prompt or version.', { ...NOT_FOUND, version: REFUSALS.unknown_version.error }),
        409: docs.errorResponse('The prompt has its most labels already.', REFUSALS.too_many_labels.error),
      })),
      async handle(d, { projectId, params, body }) {
        const r = await promptsRepo(d.relational).setLabel(projectId, params.name, params.label, body.version);
        if (!r.ok) throw refusal(r.reason);
        return { version: versionJson(r.version) };
      },
    }),
    route({
      method: 'delete',
      path: PROMPT_PATHS.label,
      summary: 'Remove a label (not latest)',
      params: labelParams,
      answers: answers(undefined, (docs) => ({ 404: docs.errorResponse('Unknown project, prompt or label.', { ...NOT_FOUND, label: 'Label not found' }) }), 204),
      async handle(d, { projectId, params }, _request, reply) {
        if (!(await promptsRepo(d.relational).removeLabel(projectId, params.name, params.label))) throw notFound('Label');
        return reply.code(204).send();
      },
    }),
  ],
};
