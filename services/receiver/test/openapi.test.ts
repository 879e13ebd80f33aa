import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedOpenApi as buildOpenApiDocument } from '../../embedded/src/openapi.ts';
import { receiverOpenApi } from '../src/openapi.ts';
import { receiverHarness, type Harness } from './harness.ts';

// The published contract: generated from the receiver's zod schemas, checked in as
// docs/openapi.json (regenerate with `npm run openapi`) and served at GET /openapi.json.

const PATHS: Record<string, string[]> = {
  '/ingest/logs': ['post'],
  '/ingest/errors': ['post'],
  '/ingest/traces': ['post'],
  '/ingest/llm': ['post'],
  '/ingest/prompts/{name}': ['get'],
  '/ingest/sessions': ['post'],
  '/ingest/metrics': ['post'],
  '/ingest/scores': ['post'],
  '/ingest/drain': ['post'],
  '/ingest/batch': ['post'],
  '/v1/logs': ['post'],
  '/v1/traces': ['post'],
  '/v1/metrics': ['post'],
  '/health': ['get'],
  '/health/ready': ['get'],
  '/openapi.json': ['get'],
  '/schemas': ['get'],
  '/schemas/envelope-v1.json': ['get'],
  '/schemas/envelope-v2.json': ['get'],
  '/schemas/envelope-v3.json': ['get'],
  '/schemas/request-log.json': ['get'],
  '/schemas/event-log.json': ['get'],
  '/schemas/event-error.json': ['get'],
  '/schemas/event-span.json': ['get'],
  '/schemas/event-llm.json': ['get'],
  '/schemas/event-session.json': ['get'],
  '/schemas/event-metric.json': ['get'],
  '/schemas/event-score.json': ['get'],
  '/schemas/deletion-v1.json': ['get'],
  '/schemas/index.json': ['get'],
  '/api/admin/projects': ['get', 'post'],
  '/api/admin/projects/{id}': ['get', 'delete'],
  '/api/admin/projects/{id}/revoke-key': ['post'],
  '/api/admin/projects/{id}/allowed-origins': ['put'],
  '/api/admin/projects/{id}/rate-limit': ['put'],
  '/api/admin/projects/{id}/drain-secret': ['put'],
  '/api/admin/projects/{id}/data-policy': ['get'],
  '/api/admin/projects/{id}/retention': ['put'],
  '/api/admin/projects/{id}/scrubbing': ['put'],
  '/api/admin/projects/{id}/quotas': ['put'],
  '/api/admin/projects/{id}/sampling': ['put'],
  '/api/admin/projects/{id}/deletions': ['get', 'post'],
  '/api/admin/llm-prices': ['get'],
  '/api/admin/llm-prices/{model}': ['put', 'delete'],
  '/api/admin/deletions': ['get'],
  '/api/admin/deletions/{deletionId}': ['get'],
  '/api/projects/{id}/logs': ['get'],
  '/api/projects/{id}/errors': ['get'],
  '/api/projects/{id}/error-groups': ['get'],
  '/api/projects/{id}/error-groups/{fingerprint}': ['get'],
  '/api/projects/{id}/traces': ['get'],
  '/api/projects/{id}/traces/{traceId}': ['get'],
  '/api/projects/{id}/spans': ['get'],
  '/api/projects/{id}/llm-usage': ['get'],
  '/api/projects/{id}/releases/health': ['get'],
  '/api/projects/{id}/metrics': ['get'],
  '/api/projects/{id}/metrics/attributes': ['get'],
  '/api/projects/{id}/metrics/attribute-values': ['get'],
  '/api/projects/{id}/metrics/points': ['get'],
  '/api/projects/{id}/metrics/series': ['get'],
  '/api/projects/{id}/llm-calls': ['get'],
  '/api/projects/{id}/llm-calls/by-metadata': ['get'],
  '/api/projects/{id}/llm-calls/latency': ['get'],
  '/api/projects/{id}/llm-calls/metadata-keys': ['get'],
  '/api/projects/{id}/logs/facets': ['get'],
  '/api/projects/{id}/logs/facets/ranges': ['get'],
  '/api/projects/{id}/logs/surrounding': ['get'],
  '/api/projects/{id}/logs/volume': ['get'],
  '/api/projects/{id}/saved-queries': ['get', 'post'],
  '/api/projects/{id}/saved-queries/{queryId}': ['delete'],
  '/api/projects/{id}/prompts': ['get', 'post'],
  '/api/projects/{id}/prompts/{name}': ['get'],
  '/api/projects/{id}/prompts/{name}/versions/{version}': ['get'],
  '/api/projects/{id}/prompts/{name}/versions/{version}/comparison': ['get'],
  '/api/projects/{id}/prompts/{name}/labels/{label}': ['put', 'delete'],
  '/api/projects/{id}/ingestion': ['get'],
  '/api/projects/{id}/error-activity': ['get'],
  '/api/projects/{id}/error-services': ['get'],
  '/api/projects/{id}/llm-breakdown': ['get'],
  '/api/projects/{id}/llm-traces/{traceId}': ['get'],
  '/api/projects/{id}/llm-users/{user}': ['get'],
  '/api/projects/{id}/error-groups/triage': ['get', 'post'],
  '/api/projects/{id}/error-groups/{fingerprint}/triage': ['get'],
  '/api/projects/{id}/error-groups/{fingerprint}/merge': ['post'],
  '/api/projects/{id}/error-groups/{fingerprint}/assignee': ['put'],
  '/api/projects/{id}/error-groups/{fingerprint}/comments': ['get', 'post'],
  '/api/projects/{id}/error-groups/{fingerprint}/similar': ['get'],
  '/api/projects/{id}/error-groups/{fingerprint}/symbolicated': ['get'],
  '/api/projects/{id}/alert-rules': ['get', 'post'],
  '/api/projects/{id}/alert-rules/{ruleId}': ['get', 'put', 'delete'],
  '/api/projects/{id}/alert-rules/{ruleId}/test': ['post'],
  '/api/projects/{id}/alert-notifications': ['get'],
  '/api/projects/{id}/source-maps': ['get', 'post', 'delete'],
  '/api/projects/{id}/upload-tokens': ['get', 'post'],
  '/api/projects/{id}/upload-tokens/{tokenId}': ['delete'],
  '/api/admin/projects/{id}/llm': ['put'],
  '/api/projects/{id}/llm-sessions': ['get'],
  '/api/projects/{id}/logs/export': ['get'],
  '/api/projects/{id}/service-map': ['get'],
  '/api/projects/{id}/spans/services': ['get'],
  '/api/projects/{id}/scores': ['get', 'post'],
  '/api/projects/{id}/scores/summary': ['get'],
  '/api/projects/{id}/scores/series': ['get'],
};

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { security?: Array<Record<string, unknown>>; responses: Record<string, any>; requestBody?: any }>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any>; headers: Record<string, any> };
};

const doc = buildOpenApiDocument() as unknown as Doc;

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and covers every endpoint, and only those', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(PATHS).sort());
    for (const [path, methods] of Object.entries(PATHS)) expect(Object.keys(doc.paths[path]).sort(), path).toEqual([...methods].sort());
  });

  it('secures /ingest with the API key and /api with the operator token; health needs none', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.operatorToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.uploadToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const op of Object.values(ops)) {
        // Source maps also take an upload token (a build pipeline has one), never the API key (docs/source-maps.md).
        const expected =
          path.startsWith('/ingest/') || path.startsWith('/v1/')
            ? [{ apiKey: [] }]
            : path.endsWith('/source-maps')
              ? [{ operatorToken: [] }, { uploadToken: [] }]
              : path.startsWith('/api/')
                ? [{ operatorToken: [] }]
                : undefined;
        expect(op.security, path).toEqual(expected);
      }
    }
  });

  it('gives every ingest endpoint its request body, success body, error answers and rate-limit headers', () => {
    const bodies: Record<string, string> = {
      '/ingest/logs': 'LogBatch',
      '/ingest/errors': 'ErrorReport',
      '/ingest/traces': 'TraceSpan',
      '/ingest/llm': 'LlmUsage',
      '/ingest/sessions': 'SessionUpdate',
      '/ingest/drain': 'VercelDrainBody',
      '/ingest/batch': 'IngestBatch',
    };
    const ok: Record<string, string> = {
      '/ingest/logs': 'OkCount',
      '/ingest/errors': 'OkFingerprint',
      '/ingest/traces': 'Ok',
      '/ingest/llm': 'Ok',
      '/ingest/sessions': 'Ok',
      '/ingest/drain': 'OkCount',
      '/ingest/batch': 'IngestBatchAnswer',
    };
    for (const [path, schema] of Object.entries(bodies)) {
      const op = doc.paths[path].post;
      expect(op.requestBody.content['application/json'].schema.$ref).toBe(`#/components/schemas/${schema}`);
      expect(op.responses['200'].content['application/json'].schema.$ref).toBe(`#/components/schemas/${ok[path]}`);
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '413', '415', '429', '431', '503']);
      expect(op.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ValidationError');
      expect(op.responses['401'].content['application/json'].example).toEqual({ error: 'Missing or invalid API key' });
      expect(op.responses['403'].content['application/json'].examples.origin.value).toEqual({ error: 'Origin not allowed' });
      expect(op.responses['429'].content['application/json'].example).toEqual({ error: 'Rate limit exceeded' });
      for (const status of ['200', '429']) expect(Object.keys(op.responses[status].headers), `${path} ${status}`).toContain('X-RateLimit-Reset');
      for (const status of ['429', '503']) expect(Object.keys(op.responses[status].headers)).toContain('Retry-After');
    }
    expect(doc.paths['/ingest/drain'].post.responses['403'].content['application/json'].examples.signature.value).toEqual({ error: 'Invalid drain signature' });
    expect(Object.keys(doc.components.headers).sort()).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
  });

  it('carries the contract schemas: limits, enums, defaults and required fields', () => {
    const s = doc.components.schemas;
    expect(s.LogBatch.properties.logs).toMatchObject({ minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/LogEntry' } });
    expect(s.LogBatch.required).toEqual(['logs']);
    expect(s.LogBatch.properties.release.maxLength).toBe(128);
    expect(s.LogEntry.properties.release.maxLength).toBe(128);
    expect(s.LogEntry.properties.level.enum).toEqual(['debug', 'info', 'warn', 'error']);
    expect(s.LogEntry.required).toEqual(['level', 'message']);
    expect(s.LogBatch.properties.service.default).toBe('unknown');
    expect(s.LogBatch.properties.environment.default).toBe('production');
    expect(s.ErrorReport.properties.severity).toMatchObject({ enum: ['low', 'medium', 'high', 'critical'], default: 'medium' });
    expect(s.ErrorReport.required.sort()).toEqual(['error_message', 'stack_trace']);
    expect(s.TraceSpan.properties.status).toMatchObject({ enum: ['ok', 'error'], default: 'ok' });
    expect(s.TraceSpan.properties.parent_span_id.default).toBe('');
    expect(s.TraceSpan.properties.duration_ms.minimum).toBe(0);
    expect(s.LlmUsage.properties.cost_usd.default).toBe(0);
    for (const f of ['input_tokens', 'output_tokens', 'latency_ms']) expect(s.LlmUsage.properties[f].minimum).toBe(0);
    expect(s.VercelDrainBody.maxItems).toBe(5000);
    expect(s.ValidationError.properties.success).toMatchObject({ type: 'boolean', enum: [false] });
  });

  it('returns a fresh copy each time', () => {
    const a = buildOpenApiDocument() as unknown as Doc;
    (a.paths as Record<string, unknown>)['/x'] = {};
    expect((buildOpenApiDocument() as unknown as Doc).paths['/x']).toBeUndefined();
  });
});

describe('docs/openapi.json', () => {
  it('is exactly the generated document (run `npm run openapi` after changing a schema)', () => {
    const checkedIn = readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');
    expect(checkedIn).toBe(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  });
});

describe('the running receiver', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await receiverHarness();
  });
  afterAll(async () => h.close());

  it('serves the document of its own routes at GET /openapi.json without authentication', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual(receiverOpenApi());
    // ... which is the published document's part of the paths it serves.
    const published = buildOpenApiDocument() as unknown as Doc;
    const own = res.json() as Doc;
    expect(Object.keys(own.paths).sort()).toEqual(
      Object.keys(published.paths)
        .filter((p) => !p.startsWith('/api/'))
        .sort(),
    );
    for (const path of Object.keys(own.paths)) expect(own.paths[path]).toEqual(published.paths[path]);
  });

  it('serves the JSON Schema of the Kafka messages at /schemas, as checked in under docs/schemas', async () => {
    const index = await h.app.inject({ method: 'GET', url: '/schemas' });
    expect(index.statusCode).toBe(200);
    expect(index.json()).toEqual(JSON.parse(readFileSync(new URL('../../../docs/schemas/index.json', import.meta.url), 'utf8')));
    // The index under its file name too, so a folder and the URL are read alike.
    expect((await h.app.inject({ method: 'GET', url: '/schemas/index.json' })).json()).toEqual(index.json());
    for (const name of index.json().files as string[]) {
      const res = await h.app.inject({ method: 'GET', url: `/schemas/${name}` });
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/schema\+json/);
      expect(res.json()).toEqual(JSON.parse(readFileSync(new URL(`../../../docs/schemas/${name}`, import.meta.url), 'utf8')));
    }
    expect((await h.app.inject({ method: 'GET', url: '/schemas/nope.json' })).statusCode).toBe(404);
  });

  it('answers with bodies and headers that match the documented responses', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv); // CommonJS module: its function is also its .default
    ajv.addSchema({ ...doc, $id: 'doc' });
    const check = (path: string, method: string, status: number, body: unknown, headers: Record<string, unknown>) => {
      const response = doc.paths[path][method].responses[String(status)];
      expect(response, `${method} ${path} ${status} is documented`).toBeDefined();
      const schema = response.content['application/json'].schema;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"doc#/')));
      expect(validate(body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      for (const name of Object.keys(response.headers ?? {})) expect(headers[name.toLowerCase()], `${path} ${status} header ${name}`).toBeDefined();
    };
    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      h.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json', ...headers },
        payload: payload as object,
      });
    const cases: Array<[string, unknown, number, Record<string, string>?]> = [
      ['/ingest/logs', { logs: [{ level: 'info', message: 'hi' }] }, 200],
      ['/ingest/logs', { service: 'x' }, 400],
      ['/ingest/errors', { error_message: 'boom', stack_trace: 'Error: boom\n    at f (/a/b.js:1:2)' }, 200],
      ['/ingest/traces', { trace_id: 't', span_id: 's', operation: 'GET /', start_time: '2025-01-01T00:00:00Z', duration_ms: 1.4 }, 200],
      ['/ingest/llm', { model: 'm', provider: 'p', operation: 'chat', input_tokens: 1, output_tokens: 2, latency_ms: 3 }, 200],
      ['/ingest/drain', [{ message: 'm', timestamp: Date.now(), level: 'info' }], 200],
      [
        '/ingest/batch',
        { logs: [{ level: 'info', message: 'hi' }], spans: [{ trace_id: 't', span_id: 's', operation: 'GET /', start_time: '2025-01-01T00:00:00Z', duration_ms: -1 }] },
        200,
      ],
      ['/ingest/batch', { logs: [] }, 400],
      ['/ingest/llm', { model: 'm' }, 401, { authorization: 'Bearer nope' }],
    ];
    for (const [url, payload, status, headers] of cases) {
      const res = await post(url, payload, headers);
      expect(res.statusCode, url).toBe(status);
      check(url, 'post', status, res.json(), res.headers);
    }
    const tooBig = await post('/ingest/logs', { logs: [{ level: 'info', message: 'x'.repeat(6 * 1024 * 1024) }] });
    check('/ingest/logs', 'post', 413, tooBig.json(), tooBig.headers);
    const form = await h.app.inject({
      method: 'POST',
      url: '/ingest/logs',
      headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    check('/ingest/logs', 'post', 415, form.json(), form.headers);
    const limited = await h.newProject('limited', 1);
    await post('/ingest/llm', {}, { authorization: `Bearer ${limited.key}` });
    const over = await post('/ingest/llm', {}, { authorization: `Bearer ${limited.key}` });
    check('/ingest/llm', 'post', 429, over.json(), over.headers);
    for (const url of ['/health', '/health/ready']) {
      const res = await h.app.inject({ method: 'GET', url });
      check(url, 'get', res.statusCode, res.json(), res.headers);
    }
  });
});
