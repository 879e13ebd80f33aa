import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
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
  /** The project the route is about, when its group names one (RouteGroup.projectOf); '' otherwise. */
  projectId: string;
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
  /** Who may call it, as the document's security requirements (the serving scope's onRequest hook checks it); the group's by default. */
  security?: Record<string, string[]>[];
  params?: P;
  query?: Q;
  body?: B;
  /** 'bytes': the handler takes the body as it came (a source map, which a worker parses); `body` documents it. */
  bodyAs?: 'bytes';
  /** Fastify's options of the route (a body limit, a hook), from the group's dependencies. */
  options?(deps: D): RouteShorthandOptions;
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
  /** Who may call its routes, unless a route says otherwise. */
  security: Record<string, string[]>[];
  /** The path parameters of a route that declares none (a project's :id). */
  params?: AnyZodObject;
  /** The project a request is about, once the caller may see it (else it throws the 404): before the input is read. */
  projectOf?(request: FastifyRequest): Promise<string>;
  routes: Route<D>[];
}

/** Whether a route admits a project's upload token (its security names it): served in the scope that authenticates those. */
export const admitsUploadTokens = <D>(r: Route<D>) => (r.security ?? []).some((s) => 'uploadToken' in s);

/** Serves the routes of a group (those `only` keeps) on `app`, whose hooks authenticate the caller. */
export function serveGroup<D>(app: FastifyInstance, group: RouteGroup<D>, deps: D, only: (r: Route<D>) => boolean = () => true): void {
  for (const r of group.routes.filter(only)) {
    const params = r.params ?? group.params;
    app.route({
      ...r.options?.(deps),
      method: r.method.toUpperCase() as Uppercase<Method>,
      url: r.path,
      handler: async (request, reply) =>
        r.handle(
          deps,
          {
            projectId: group.projectOf ? await group.projectOf(request) : '',
            params: params ? params.parse(request.params) : undefined,
            query: r.query ? r.query.parse(request.query) : undefined,
            body: r.body && r.bodyAs !== 'bytes' ? r.body.parse(request.body) : undefined,
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
    for (const r of group.routes) {
      const params = r.params ?? group.params;
      docs.registry.registerPath({
        method: r.method,
        path: openApiPath(r.path),
        tags: [group.name],
        summary: r.summary,
        description: r.description,
        security: r.security ?? group.security,
        request: {
          ...(params ? { params } : {}),
          ...(r.query ? { query: noted(r.query, r.notes) } : {}),
          ...(r.body ? { body: { required: true, ...json(noted(r.body, r.notes)) } } : {}),
        },
        responses: r.answers(docs),
      });
    }
    return { name: group.name, description: group.description };
  };
}
