import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { routeNotFoundBody } from '@devtrail/http';
import { indexPage } from './index-page.ts';
import { loadVendorFiles } from './vendor-files.ts';

// The UI's files: the HTML document for every client-side route, the app's own modules
// and styles (services/dashboard/public) and the vendored browser libraries.

export const UI_ROUTES = ['/', '/login', '/setup', '/projects', '/projects/*', '/users', '/account', '/llm-prices'];
/** Paths of the APIs and files: an unknown one is a JSON 404, never the UI's page. */
const API_PREFIXES = ['/api/', '/auth/', '/ingest/', '/v1/', '/ui/', '/health', '/metrics', '/openapi.json', '/schemas'];
const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

export async function registerUiPages(app: FastifyInstance): Promise<void> {
  const vendor = loadVendorFiles();
  const page = indexPage(vendor);
  for (const url of UI_ROUTES) app.get(url, async (_request, reply) => reply.headers(page.headers).send(page.html));
  // Any other path: a browser gets the UI, which shows its own "page not found", with a 404;
  // an API client (or a path under an API) gets the JSON 404 every service answers.
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0];
    const browser = /\btext\/html\b/.test(String(request.headers.accept ?? ''));
    if (!browser || API_PREFIXES.some((p) => path.startsWith(p))) return reply.code(404).send(routeNotFoundBody(request.method, request.url));
    return reply.code(404).headers(page.headers).send(page.html);
  });

  app.get('/ui/vendor/:name', async (request, reply) => {
    const f = vendor.get((request.params as { name: string }).name);
    if (!f) return reply.code(404).send({ error: 'Not found' });
    reply.headers({
      'content-type': f.type,
      etag: f.etag,
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
    });
    if (request.headers['if-none-match'] === f.etag) return reply.code(304).send();
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(f.gzip);
    return reply.send(f.body);
  });

  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: '/ui/assets/',
    decorateReply: false,
    index: false,
    list: false,
    cacheControl: false,
    setHeaders: (reply) => {
      reply.header('cache-control', 'no-cache');
      reply.header('x-content-type-options', 'nosniff');
    },
  });
}
