import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z, type AnyZodObject, type ZodTypeAny } from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { describeFields, json, openApiPath, type ApiDocs, type DocumentRoutes, type ResponseConfig } from './api-docs.ts';

// A route declared once (docs/architecture.md, "Routes"): its method, path, who may call it, its
// input schemas, its answers and its description are one object; Fastify's route and the OpenAPI
// document are both made from it, so they cannot drift apart. A group of routes is one resource
// (logs, traces, projects, ...): one tag of the document, one file.

// Answer schemas are declared beside their routes, as module constants named with .openapi().
extendZodWithOpenApi(z);

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Out<T> = T extends ZodTypeAny ? z.output<T> : undefined;

export interface RouteInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

export interface RouteSpec<D, P extends AnyZodObject | undefined, Q extends AnyZodObject | undefined, B extends ZodTypeAny | undefined> {
  method: Method;
  /** Fastify's syntax: /api/projects/:id/logs. */
  path: string;
  summary: string;
  description?: string;
  /** Who may call it, as the document's security requirements (the group's onRequest hook checks it). */
  security: Record<string, string[]>[];
  params?: P;
  query?: Q;
  body?: B;
  /** The document's words on some query or body fields; validation is unchanged. */
  notes?: Record<string, string>;
  /** The answers, from the document's shared parts (the 400, 401, 404 and 503 bodies). */
  answers(docs: ApiDocs): Record<string, ResponseConfig>;
  /** Answers the request, given the group's dependencies and the parsed input (a ZodError is the 400). */
  handle(deps: D, input: RouteInput<P, Q, B>, request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

export type Route<D> = RouteSpec<D, AnyZodObject | undefined, AnyZodObject | undefined, ZodTypeAny | undefined>;

/** A route, with its handler's input typed by its schemas. */
export const route = <D, P extends AnyZodObject | undefined = undefined, Q extends AnyZodObject | undefined = undefined, B extends ZodTypeAny | undefined = undefined>(
  spec: RouteSpec<D, P, Q, B>,
): Route<D> => spec as unknown as Route<D>;

export interface RouteGroup<D> {
  /** The document's tag. */
  name: string;
  description: string;
  routes: Route<D>[];
}

/** Serves every route of a group on `app` (whose hooks authenticate the caller). */
export function serveGroup<D>(app: FastifyInstance, group: RouteGroup<D>, deps: D): void {
  for (const r of group.routes) {
    app.route({
      method: r.method.toUpperCase() as Uppercase<Method>,
      url: r.path,
      handler: (request, reply) =>
        r.handle(
          deps,
          {
            params: r.params ? r.params.parse(request.params) : undefined,
            query: r.query ? r.query.parse(request.query) : undefined,
            body: r.body ? r.body.parse(request.body) : undefined,
          },
          request,
          reply,
        ),
    });
  }
}

const noted = <T extends ZodTypeAny>(schema: T, notes: Record<string, string> | undefined): T => {
  if (!notes || !(schema instanceof z.ZodObject)) return schema;
  const own = Object.fromEntries(Object.entries(notes).filter(([k]) => k in schema.shape));
  return Object.keys(own).length ? (describeFields(schema, own) as unknown as T) : schema;
};

/** The group as one tag of the OpenAPI document, each route a path of it. */
export function documentGroup(group: RouteGroup<never>): DocumentRoutes {
  return (docs) => {
    for (const r of group.routes)
      docs.registry.registerPath({
        method: r.method,
        path: openApiPath(r.path),
        tags: [group.name],
        summary: r.summary,
        description: r.description,
        security: r.security,
        request: {
          ...(r.params ? { params: r.params } : {}),
          ...(r.query ? { query: noted(r.query, r.notes) } : {}),
          ...(r.body ? { body: { required: true, ...json(noted(r.body, r.notes)) } } : {}),
        },
        responses: r.answers(docs),
      });
    return { name: group.name, description: group.description };
  };
}
