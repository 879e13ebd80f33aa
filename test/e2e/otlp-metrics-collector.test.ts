import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.ts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';

// A real OpenTelemetry Collector (v0.160: otlp receiver, otlphttp exporter with its retries and
// queue) in front of devtrail (`npm start`), fed by the Collector project's own load generator,
// `telemetrygen metrics`: every data point is stored exactly once, in both encodings, and those
// sent while devtrail is down arrive once it is back (docs/otlp.md, "Pointing an SDK at
// devtrail"). The two binaries are built outside the repository (docs/testing.md, "The
// Collector"); without them the suite skips and says so.

const SCRATCH = process.env.SCRATCH ?? tmpdir();
const COLLECTOR = process.env.OTELCOL_FRONT ?? join(SCRATCH, 'metrics-peer', 'otelcol-front', 'otelcol-front');
const TELEMETRYGEN = process.env.TELEMETRYGEN ?? join(SCRATCH, 'metrics-peer', 'bin', 'telemetrygen');
const have = existsSync(COLLECTOR) && existsSync(TELEMETRYGEN);
const NO_BINARIES = `no Collector at ${COLLECTOR} or no telemetrygen at ${TELEMETRYGEN} (docs/testing.md, "The Collector")`;

let e: EmbeddedProcess;
const dir = mkdtempSync(join(tmpdir(), 'dt-otelcol-'));
const collectors: ChildProcess[] = [];

/** A Collector that forwards OTLP metrics to devtrail in `encoding`; its OTLP/HTTP port. */
async function collector(encoding: 'proto' | 'json'): Promise<number> {
  const port = await freePort();
  const config = join(dir, `${encoding}.yaml`);
  writeFileSync(
    config,
    `receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${port}
exporters:
  otlphttp/devtrail:
    endpoint: ${e.url}
    headers: { authorization: "Bearer ${e.project.key}" }
    encoding: ${encoding}
    compression: gzip
    retry_on_failure: { enabled: true, initial_interval: 500ms, max_interval: 2s, max_elapsed_time: 120s }
    sending_queue: { enabled: true }
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    metrics:
      receivers: [otlp]
      exporters: [otlphttp/devtrail]
`,
  );
  const c = spawn(COLLECTOR, ['--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  c.stderr!.on('data', (d) => (err = (err + d).slice(-20_000)));
  collectors.push(c);
  for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 200))) {
    const up = await fetch(`http://127.0.0.1:${port}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return port;
    if (Date.now() > end || c.exitCode !== null) throw new Error(`the Collector did not start:\n${err}`);
  }
}

/** `telemetrygen metrics`: `count` points of one metric, as fast as it can, to the Collector. */
function generate(port: number, name: string, type: string, count: number): void {
  const r = spawnSync(
    TELEMETRYGEN,
    [
      'metrics',
      '--otlp-http',
      '--otlp-insecure',
      '--otlp-endpoint',
      `127.0.0.1:${port}`,
      '--otlp-metric-name',
      name,
      '--metric-type',
      type,
      '--metrics',
      String(count),
      '--rate',
      '0',
      '--service',
      'telemetrygen',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(r.status, r.stderr).toBe(0);
}

/** Points stored of each metric, as the read API counts them. */
async function stored(): Promise<Record<string, number>> {
  const r = await fetch(`${e.url}/api/projects/${e.project.id}/metrics?from=${Date.now() - 3600_000}`, { headers: { authorization: `Bearer ${e.operatorToken}` } });
  const body = (await r.json()) as { metrics: Array<{ name: string; points: number }> };
  return Object.fromEntries(body.metrics.map((m) => [m.name, m.points]));
}

describe.skipIf(!have)(`the OpenTelemetry Collector in front of devtrail${have ? '' : ` (skipped: ${NO_BINARIES})`}`, () => {
  beforeAll(async () => {
    e = await startEmbeddedProcess();
  }, 120_000);
  afterAll(async () => {
    for (const c of collectors) c.kill('SIGTERM');
    await e?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('telemetrygen through the Collector, protobuf and JSON: every data point stored once', async () => {
    const proto = await collector('proto');
    const json = await collector('json');
    generate(proto, 'tg.proto.sum', 'Sum', 300);
    generate(proto, 'tg.proto.histogram', 'Histogram', 100);
    generate(json, 'tg.json.gauge', 'Gauge', 300);
    generate(json, 'tg.json.exponential', 'ExponentialHistogram', 100);
    const want = { 'tg.proto.sum': 300, 'tg.proto.histogram': 100, 'tg.json.gauge': 300, 'tg.json.exponential': 100 };
    await expect.poll(stored, { timeout: 30_000 }).toEqual(want);
    // Still once a while later: nothing retried into a second copy.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await stored()).toEqual(want);
  }, 120_000);

  it('points sent while devtrail is down are retried by the Collector and stored once it is back', async () => {
    const port = await collector('proto');
    generate(port, 'tg.outage.before', 'Sum', 50);
    await expect.poll(async () => (await stored())['tg.outage.before'], { timeout: 30_000 }).toBe(50);
    await e.stop();
    // The Collector takes them (200 to telemetrygen) and queues them while devtrail refuses connections.
    generate(port, 'tg.outage.during', 'Sum', 80);
    await new Promise((r) => setTimeout(r, 2000));
    await e.restart();
    await expect.poll(async () => (await stored())['tg.outage.during'], { timeout: 60_000 }).toBe(80);
    await new Promise((r) => setTimeout(r, 2000));
    const after = await stored();
    expect(after['tg.outage.during']).toBe(80);
    expect(after['tg.outage.before']).toBe(50);
  }, 180_000);
});
