import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../libs/sdk/src/index.ts';
import { pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';

// Prompts on the split services (docs/sdk.md#prompts): written through the dashboard process,
// read by the real SDK from the receiver process with the project key, over the stack's
// PostgreSQL; a moved label reaches the app once the SDK's cache passes (the receiver process drops
// its cached read on the dashboard's NOTIFY).
const up = await stackUp();

describe.skipIf(!up)(`prompts on the distributed services${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  let project: { id: string; key: string };
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${dashboard.url}/api/projects/${project.id}${path}`, {
      method,
      headers: { authorization: `Bearer ${p.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return r.status;
  };

  beforeAll(async () => {
    p = await pipeline();
    receiver = await p.start('receiver');
    dashboard = await p.start('dashboard');
    const created = JSON.parse((await p.cli(['project', 'create', 'prompts', '--json'], dashboard)).stdout);
    project = { id: created.project.id, key: created.api_key };
  }, 180_000);
  afterAll(async () => p?.close());

  it('serves the production version to the SDK from the receiver, and a moved label after the caches', { timeout: 40_000 }, async () => {
    expect(await api('POST', '/prompts', { name: 'triage', prompt: [{ role: 'system', content: 'Sort {{ticket}}' }], labels: ['production'] })).toBe(201);
    expect(await api('POST', '/prompts', { name: 'triage', prompt: [{ role: 'system', content: 'Sort {{ticket}} by urgency' }] })).toBe(201);
    const client = createClient({ apiKey: project.key, baseUrl: receiver.url, autoSessionTracking: false, captureUncaught: false });
    const first = await client.getPrompt('triage', { cacheTtlSeconds: 1 });
    expect([first.version, first.type, first.compile({ ticket: '#7' })]).toEqual([1, 'chat', [{ role: 'system', content: 'Sort #7' }]]);
    // The receiver's cached read, stored just now, is dropped on the dashboard's NOTIFY: well before its 5 s TTL.
    const read = async () =>
      ((await (await fetch(`${receiver.url}/ingest/prompts/triage`, { headers: { authorization: `Bearer ${project.key}` } })).json()) as { version: number }).version;
    expect(await read()).toBe(1);
    expect(await api('PUT', '/prompts/triage/labels/production', { version: 2 })).toBe(200);
    await expect.poll(read, { timeout: 3000, interval: 100 }).toBe(2);
    await expect.poll(async () => (await client.getPrompt('triage', { cacheTtlSeconds: 1 })).version, { timeout: 20_000, interval: 250 }).toBe(2);
    // The dashboard serves no ingest route, and the receiver no control plane.
    expect((await fetch(`${dashboard.url}/ingest/prompts/triage`, { headers: { authorization: `Bearer ${project.key}` } })).status).toBe(404);
  });
});
