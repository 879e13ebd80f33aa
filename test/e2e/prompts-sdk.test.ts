import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createClient, PromptNotAvailableError, type DevtrailClient } from '../../libs/sdk/src/index.ts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';
import { METRICS } from '@devtrail/metrics';
import { scrape, sumOf } from '../support/prometheus-text.ts';

// Prompts as an app uses them, against the process `npm start` runs: the real SDK fetches a
// version by label (cached, a moved label seen once the caches' TTLs pass), falls back when
// devtrail is out, and links the calls it reports to the version, as does the real
// OpenTelemetry SDK over OTLP; the version comparison equals the sums of those calls' own
// figures (docs/sdk.md#prompts, docs/api.md "Prompts").

let e: EmbeddedProcess;
beforeAll(async () => {
  e = await startEmbeddedProcess();
}, 120_000);
afterAll(async () => e?.close());

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${e.url}/api/projects/${e.project.id}${path}`, {
    method,
    headers: { authorization: `Bearer ${e.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
};
const sdk = (): DevtrailClient => createClient({ apiKey: e.project.key, baseUrl: e.url, service: 'assistant', autoSessionTracking: false, captureUncaught: false });

describe('getPrompt against the embedded process', () => {
  let cached: DevtrailClient;

  it('fetches the production version, compiles it, and sees a moved label once the TTLs pass', { timeout: 30_000 }, async () => {
    expect((await api('POST', '/prompts', { name: 'greet', prompt: 'Hi {{name}}', config: { model: 'gpt-4o-mini' }, labels: ['production'] })).status).toBe(201);
    expect((await api('POST', '/prompts', { name: 'greet', prompt: 'Hello {{ name }}, how can I help?' })).status).toBe(201);
    cached = sdk();
    const p = await cached.getPrompt('greet', { cacheTtlSeconds: 1 });
    expect([p.version, p.compile({ name: 'Ada' }), p.config, p.isFallback]).toEqual([1, 'Hi Ada', { model: 'gpt-4o-mini' }, false]);
    expect((await cached.getPrompt('greet', { label: 'latest' })).compile({ name: 'Ada' })).toBe('Hello Ada, how can I help?');
    expect((await cached.getPrompt('greet', { version: 1 })).labels).toEqual(['production']);
    expect((await api('PUT', '/prompts/greet/labels/production', { version: 2 })).status).toBe(200);
    // The receiver drops its cached read on the change's NOTIFY; the SDK's cache (1 s here) serves the stale version while one fetch refreshes it.
    await expect.poll(async () => (await cached.getPrompt('greet', { cacheTtlSeconds: 1 })).version, { timeout: 20_000, interval: 250 }).toBe(2);
    // Every read the receiver answered is counted, a cached one as a hit (docs/operations.md#metrics).
    const m = await scrape(e.url);
    expect(sumOf(m, METRICS.promptReads.name, { result: 'miss' })).toBeGreaterThanOrEqual(4);
  });

  it('refuses an unknown prompt or a wrong key, unless a fallback is given', async () => {
    await expect(sdk().getPrompt('missing')).rejects.toMatchObject({ name: 'PromptNotAvailableError', status: 404 });
    const stranger = createClient({ apiKey: `dt_${'0'.repeat(24)}`, baseUrl: e.url, autoSessionTracking: false, captureUncaught: false });
    await expect(stranger.getPrompt('greet')).rejects.toMatchObject({ status: 401 });
    const fb = await stranger.getPrompt('greet', { fallback: [{ role: 'system', content: 'Be {{tone}}' }] });
    expect([fb.isFallback, fb.compile({ tone: 'kind' }), fb.attributes]).toEqual([true, [{ role: 'system', content: 'Be kind' }], { 'prompt.name': 'greet' }]);
  });

  it("links calls to their version through /ingest/llm and OTLP, and the comparison equals the calls' sums", { timeout: 40_000 }, async () => {
    const client = sdk();
    const v1 = await client.getPrompt('greet', { version: 1 });
    const v2 = await client.getPrompt('greet', { version: 2 });
    const usage = { model: 'gpt-4o-mini', provider: 'openai', operation: 'chat', inputTokens: 1000, outputTokens: 100 };
    client.llmUsage({ ...usage, latencyMs: 100, costUsd: 0.01, prompt: v1 });
    client.llmUsage({ ...usage, latencyMs: 200, costUsd: 0.03, prompt: v2 });
    client.llmUsage({ ...usage, latencyMs: 400, prompt: v2 }); // no cost sent: the price table's estimate
    expect(await client.flush(10_000)).toBe(true);

    // The real OpenTelemetry SDK: one span linked the SDK's way, one as Langfuse's SDK links it.
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'otel-assistant' }),
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${e.url}/v1/traces`, headers: { authorization: `Bearer ${e.project.key}` } }))],
    });
    const tracer = provider.getTracer('prompts-test');
    const genAi = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 500,
      'gen_ai.usage.output_tokens': 50,
    };
    for (const attributes of [
      { ...genAi, ...v2.attributes },
      { ...genAi, 'langfuse.observation.prompt.name': 'greet', 'langfuse.observation.prompt.version': 2 },
    ]) {
      const span = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, attributes });
      span.end();
    }
    await provider.forceFlush();
    await provider.shutdown();

    const compare = async () => (await api('GET', '/prompts/greet/versions/2/comparison')).body;
    await expect.poll(async () => (await compare()).version?.calls, { timeout: 20_000, interval: 300 }).toBe(4);
    const { version, previous } = await compare();
    // The calls' own figures, read one by one.
    const callsOf = async (metadata: string) =>
      (await api('GET', `/llm-calls?limit=100&metadata=${encodeURIComponent(metadata)}`)).body.calls as Array<{
        cost_usd: number;
        input_tokens: number;
        output_tokens: number;
        latency_ms: number;
        metadata: Record<string, unknown>;
      }>;
    const mine = [...(await callsOf('prompt.version:2')), ...(await callsOf('langfuse.observation.prompt.version:2'))];
    expect(mine).toHaveLength(4);
    expect(mine.filter((c) => c.metadata['prompt.name'] === 'greet' || c.metadata['langfuse.observation.prompt.name'] === 'greet')).toHaveLength(4);
    const sum = (k: 'cost_usd' | 'input_tokens' | 'output_tokens') => mine.reduce((s, c) => s + c[k], 0);
    expect(version).toMatchObject({ version: 2, calls: 4, input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens') });
    expect(version.cost_usd).toBeCloseTo(sum('cost_usd'), 10);
    expect(version.cost_per_call_usd).toBeCloseTo(sum('cost_usd') / 4, 10);
    expect(version.estimated_cost_usd).toBeGreaterThan(0);
    const v1Calls = await callsOf('prompt.version:1');
    expect(previous).toMatchObject({ version: 1, calls: v1Calls.length, cost_usd: 0.01, latency_p50_ms: 100 });
    expect(v1Calls).toHaveLength(1);
  });

  it('uses the fallback when devtrail is out and nothing is cached; a cached version is served as it was', { timeout: 60_000 }, async () => {
    await e.stop();
    const fresh = sdk();
    const fb = await fresh.getPrompt('greet', { fallback: 'Hi {{name}} (offline)' });
    expect([fb.isFallback, fb.version, fb.compile({ name: 'Ada' })]).toEqual([true, 0, 'Hi Ada (offline)']);
    await expect(fresh.getPrompt('greet')).rejects.toBeInstanceOf(PromptNotAvailableError);
    // Stale (TTL 1 s passed long ago) and unreachable: still the version it had.
    const stale = await cached.getPrompt('greet', { cacheTtlSeconds: 1 });
    expect([stale.version, stale.isFallback]).toEqual([2, false]);
  });
});
