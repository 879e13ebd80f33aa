// Errors outlive an outage of the receiver (docs/sdk.md#outages), from an app outside the
// repository (the packed SDK installed in an empty folder) against the REAL receiver: devtrail's
// embedded process, stopped for the outage and started again on the same port and data
// directory. Meanwhile a Node app (node:http, its handler throwing) and a page in Chromium (the
// script-tag build, uncaught errors; the page is reloaded during the outage, so its errors wait
// in localStorage) throw 30 errors each. Once the receiver is back, the read API holds each
// error exactly once. The outage lasts 5 minutes under DEVTRAIL_TEST_DEEP=1, else 25 s: longer
// than the 15 s a request used to be retried for.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, type BrowserSession } from '../../../services/dashboard/test/support/browser.ts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../../../test/support/embedded-process.ts';
import { DEEP } from '../../../test/support/property.ts';
import { packedApp, type PackedApp } from './helpers/packed-app.js';

const OUTAGE_MS = DEEP ? 5 * 60_000 : 25_000;
const ERRORS = 30;
const hasBrowser = browserAvailable();

let packed: PackedApp;
let receiver: EmbeddedProcess;
let nodeApp: ChildProcess;
let nodeUrl: string;
let pageServer: Server;
let pageUrl: string;
let browser: BrowserSession | undefined;

const NODE_APP = `import { createServer } from 'node:http';
import { createClient } from '@devtrail/sdk';
const devtrail = createClient({ apiKey: process.env.KEY, baseUrl: process.env.RECEIVER, service: 'outage-node', release: 'r1', autoSessionTracking: false });
const server = createServer((req, res) => {
  try {
    if (req.url === '/stats') return void res.end(JSON.stringify(devtrail.stats()));
    throw new Error('outage node ' + req.url.slice(1));
  } catch (err) {
    devtrail.captureError(err);
    res.writeHead(500).end('failed');
  }
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', async () => { await devtrail.close(2000); process.exit(0); });`;

const page = (receiverUrl: string, key: string) => `<!doctype html><html><head><title>outage</title><script src="/devtrail.min.js"></script></head>
<body><script>
  window.client = devtrail.createClient({ apiKey: '${key}', baseUrl: '${receiverUrl}', service: 'outage-web', release: 'r1', breadcrumbs: false });
</script></body></html>`;

beforeAll(async () => {
  packed = await packedApp('sdk-outage');
  receiver = await startEmbeddedProcess();
  writeFileSync(join(packed.dir, 'app.mjs'), NODE_APP);
  nodeApp = spawn(process.execPath, ['app.mjs'], {
    cwd: packed.dir,
    env: { ...process.env, KEY: receiver.project.key, RECEIVER: receiver.url, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  nodeUrl = await new Promise<string>((resolve, reject) => {
    nodeApp.stdout!.once('data', (d) => resolve(`http://127.0.0.1:${JSON.parse(String(d)).port}`));
    nodeApp.once('exit', (code) => reject(new Error(`the Node app exited with ${code}`)));
  });
  const bundle = readFileSync(packed.browserBundle);
  pageServer = createServer((req, res) => {
    if (req.url === '/devtrail.min.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    res.writeHead(200, { 'content-type': 'text/html' }).end(page(receiver.url, receiver.project.key));
  });
  await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  if (hasBrowser) browser = await openBrowser(pageUrl);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  nodeApp?.kill('SIGTERM');
  await new Promise<void>((r) => (pageServer ? pageServer.close(() => r()) : r()));
  await receiver?.close();
  packed?.remove();
}, 60_000);

/** Every error occurrence the read API holds for a service, by message. */
async function storedErrors(service: string): Promise<string[]> {
  const from = new Date(Date.now() - 3600_000).toISOString();
  const res = await fetch(`${receiver.url}/api/projects/${receiver.project.id}/errors?from=${from}&limit=1000`, {
    headers: { authorization: `Bearer ${receiver.operatorToken}` },
  });
  if (res.status !== 200) return [];
  const body = (await res.json()) as { errors: Array<{ service: string; error_message: string }> };
  return body.errors.filter((e) => e.service === service).map((e) => e.error_message);
}

const expected = (prefix: string) => Array.from({ length: ERRORS }, (_, i) => `${prefix} ${i}`).sort();

describe(`errors thrown during a ${OUTAGE_MS / 1000} s outage of the real receiver`, () => {
  it(
    `reach it exactly once after it returns: a Node app and ${hasBrowser ? 'a page in Chromium' : `no page (skipped: ${NO_BROWSER_REASON})`}`,
    async () => {
      await receiver.stop();
      const down = Date.now();
      for (let i = 0; i < ERRORS; i++) expect((await fetch(`${nodeUrl}/${i}`)).status).toBe(500);
      if (browser) {
        await browser.page.goto(pageUrl);
        await browser.page.evaluate((n) => {
          for (let i = 0; i < n; i++)
            setTimeout(() => {
              throw new Error(`outage web ${i}`);
            });
        }, ERRORS);
        await browser.page.waitForFunction(() => JSON.parse(localStorage.getItem(Object.keys(localStorage)[0]) ?? '[]').flatMap((r: any) => r.records).length >= 30);
        // The page goes away during the outage; the next load finds its errors in localStorage.
        await browser.page.reload();
      }
      const stats = await (await fetch(`${nodeUrl}/stats`)).json();
      expect(stats).toMatchObject({ sent: 0, dropped: 0 });
      await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - down))));
      await receiver.restart();

      await expect.poll(() => storedErrors('outage-node'), { timeout: 120_000, interval: 1000 }).toHaveLength(ERRORS);
      if (browser) await expect.poll(() => storedErrors('outage-web'), { timeout: 120_000, interval: 1000 }).toHaveLength(ERRORS);
      // Whatever was still in flight settles, then each error is there exactly once.
      await new Promise((r) => setTimeout(r, 3000));
      expect((await storedErrors('outage-node')).sort()).toEqual(expected('outage node'));
      if (browser) {
        expect((await storedErrors('outage-web')).sort()).toEqual(expected('outage web'));
        expect(await browser.page.evaluate(() => (window as any).client.stats())).toMatchObject({ dropped: 0, persisted: 0 });
      }
      expect(await (await fetch(`${nodeUrl}/stats`)).json()).toMatchObject({ sent: ERRORS, dropped: 0 });
    },
    OUTAGE_MS + 420_000,
  );
});
