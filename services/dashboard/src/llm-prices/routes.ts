import { z } from 'zod';
import { priceSchema, type LlmPriceTable, type ModelPrice } from '@devtrail/config';
import { MAX_PRICE_TIERS } from '@devtrail/kinds';
import { httpError } from '@devtrail/http';
import { json, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { llmPriceEditsRepo, MAX_PRICE_EDITS, type PriceEditsKeeper, type RelationalStore } from '@devtrail/relational-store';
import type { FastifyRequest } from 'fastify';
import { apiAnswers, OPERATOR } from '../api/project-route.ts';

// /api/admin/llm-prices: the prices behind every estimated LLM cost (docs/otlp.md#llm-cost),
// the price files' and the operator's edits over them. Anyone signed in reads them; the
// operator token or the owner's session edits them, deployment-wide; past calls are priced
// anew at their next read, and the llm_cost rule within PRICE_EDITS_REFRESH_MS.

export interface LlmPriceDeps {
  relational: RelationalStore;
  /** The table the reads price with (edited in place). */
  prices: LlmPriceTable;
  /** This process's keeper of the edits: refreshed after an edit, so the next read has it. */
  keeper: PriceEditsKeeper;
}

export const ONLY_ADMINS = 'Only the operator or the owner edits LLM prices';
const perMillion = (what: string) => z.number().openapi({ description: `USD per million ${what}.` });
const tier = z.object({
  above_input_tokens: z.number().int().openapi({ description: 'The tier applies to a call with more input tokens than this.' }),
  input: perMillion('input tokens'),
  output: perMillion('output tokens'),
  cached_input: perMillion('cached input tokens').optional(),
});
/** A price's fields: named LlmPrice where one is always answered, inline where it may be null (a $ref cannot be). */
const priceShape = {
  model: z.string(),
  provider: z.string().nullable(),
  input: perMillion('input tokens'),
  output: perMillion('output tokens'),
  cached_input: perMillion('input tokens read from the prompt cache').nullable().openapi({ description: 'null: as input.' }),
  tiers: z.array(tier),
  source: z.enum(['file', 'edited']).openapi({ description: "file: the repository's table or LLM_PRICES_FILE; edited: the operator's edit over it." }),
  updated_at: z.string().datetime().nullable(),
  updated_by: z.string().nullable(),
};
const priceJson = z.object(priceShape).openapi('LlmPrice');
type PriceJson = z.infer<typeof priceJson>;

const modelParam = z.object({
  model: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^/\s]+$/, 'a model name without a routing prefix (gpt-4o, not openai/gpt-4o)')
    .openapi({ description: 'The model, as a call names it after its routing prefix; any case.' }),
});
const body = priceSchema.omit({ model: true }).openapi('LlmPriceBody');

const answersOf =
  (ok: z.ZodTypeAny, more?: (docs: ApiDocs) => Record<string, ResponseConfig>) =>
  (docs: ApiDocs): Record<string, ResponseConfig> => ({ 200: { description: 'OK', ...json(ok) }, ...apiAnswers(docs).errors(null), ...more?.(docs) });
const forbidden = (docs: ApiDocs) => ({ 403: docs.errorResponse('A dashboard session other than the owner’s.', ONLY_ADMINS) });

/** Before the body is read: who may not edit learns that first, whatever they sent. */
const editors = () => ({
  preValidation: async (request: FastifyRequest) => {
    if (!request.principal!.administersDeployment) throw httpError(403, ONLY_ADMINS);
  },
});

/** Every price in force, by model, with where it comes from. */
async function listed(d: LlmPriceDeps): Promise<PriceJson[]> {
  const edits = new Map((await llmPriceEditsRepo(d.relational).list()).map((e) => [e.model, e]));
  return [...d.prices.prices.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, p]) => asJson(p, d.prices.edited.has(key) ? edits.get(key) : undefined));
}

function asJson(p: ModelPrice, edit?: { updatedAt: string; updatedBy: string }): PriceJson {
  return {
    model: p.model,
    provider: p.provider ?? null,
    input: p.input,
    output: p.output,
    cached_input: p.cached_input ?? null,
    tiers: p.tiers ?? [],
    source: edit ? 'edited' : 'file',
    updated_at: edit?.updatedAt ?? null,
    updated_by: edit?.updatedBy ?? null,
  };
}

const actorOf = (request: FastifyRequest) => (request.principal!.kind === 'operator' ? 'operator' : (request.principal!.userName ?? 'owner'));

export const LLM_PRICE_ROUTES: RouteGroup<LlmPriceDeps> = {
  name: 'llm prices',
  description: 'The prices behind estimated LLM costs: the files and the operator’s edits; operator token or session (edits: the operator or the owner).',
  security: OPERATOR,
  routes: [
    route({
      method: 'get',
      path: '/api/admin/llm-prices',
      summary: 'Every LLM price in force, by model',
      answers: answersOf(z.object({ as_of: z.array(z.string()), prices: z.array(priceJson) })),
      handle: async (d) => ({ as_of: d.prices.asOf, prices: await listed(d) }),
    }),
    route({
      method: 'put',
      path: '/api/admin/llm-prices/:model',
      summary: "Set a model's prices (over the files' price, if any), for every project and past calls too",
      params: modelParam,
      body,
      notes: {
        cached_input: 'Price of input tokens read from the prompt cache (part of input_tokens); left out: the input price.',
        tiers: `At most ${MAX_PRICE_TIERS}, in increasing above_input_tokens: a call with more input tokens pays that tier's prices.`,
      },
      answers: answersOf(z.object({ price: priceJson }), (docs) => ({
        ...forbidden(docs),
        409: docs.errorResponse(`${MAX_PRICE_EDITS} other models are edited already.`, `At most ${MAX_PRICE_EDITS} models can be edited`),
      })),
      options: editors,
      async handle(d, { params, body: b }, request) {
        const price = { model: params.model.toLowerCase(), ...b };
        const edit = await llmPriceEditsRepo(d.relational).put(price.model, price, actorOf(request));
        if (!edit) throw httpError(409, `At most ${MAX_PRICE_EDITS} models can be edited`);
        await d.keeper.refresh();
        return { price: asJson(price, edit) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/admin/llm-prices/:model',
      summary: "Remove a model's edit: the files' price (if any) is in force again",
      params: modelParam,
      answers: answersOf(
        z.object({
          price: z
            .object({ ...priceShape })
            .nullable()
            .openapi({ description: "The model's price now: the files', or null when they do not price it." }),
        }),
        (docs) => ({
          ...forbidden(docs),
          404: docs.errorResponse('The model has no edit.', 'No edit of this model'),
        }),
      ),
      options: editors,
      async handle(d, { params }) {
        if (!(await llmPriceEditsRepo(d.relational).remove(params.model))) throw httpError(404, 'No edit of this model');
        await d.keeper.refresh();
        const now = d.prices.prices.get(params.model.toLowerCase());
        return { price: now ? asJson(now) : null };
      },
    }),
  ],
};
