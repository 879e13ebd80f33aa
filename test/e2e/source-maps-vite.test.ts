import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, stackThrownOnClick, type BrowserSession } from '../../services/dashboard/test/support/browser.ts';
import { ingest, startDashboard } from '../../services/dashboard/test/support/dashboard.ts';
import { runCli } from '../support/processes.ts';

// Source maps from a Vite build (docs/source-maps.md, "Uploading from a build"): a small app
// built by Vite's own API with source maps, served by `vite preview` on two origins, its error
// thrown in Chromium; the CLI finds the build's maps by the Vite layout (dist/index.html served
// at /) and the read API gives the frames back at the original source.
const browser = browserAvailable();

const APP = {
  'index.html': `<!doctype html><html><body>
<button id="pay">Pay</button><output id="out"></output>
<script type="application/json" id="cart">{"id":"c1"}</script>
<script type="module" src="/src/main.js"></script>
</body></html>`,
  'src/main.js': `import { total } from './checkout.js';
document.querySelector('#pay').addEventListener('click', () => {
  const cart = JSON.parse(document.querySelector('#cart').textContent);
  document.querySelector('#out').textContent = String(total(cart));
});
`,
  'src/checkout.js': `// The cart's total; a cart without items throws here.
export function total(cart) {
  return cart.items.reduce((sum, item) => sum + item.price * item.qty, 0);
}
`,
};

describe.skipIf(!browser)(`source maps: a minified Vite stack at its source${browser ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  const app = mkdtempSync(join(tmpdir(), 'dt-vite-app-'));
  let deploys: PreviewServer[] = [];
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;

  beforeAll(async () => {
    for (const [file, text] of Object.entries(APP)) {
      mkdirSync(join(app, file, '..'), { recursive: true });
      writeFileSync(join(app, file), text);
    }
    await build({ root: app, configFile: false, logLevel: 'silent', build: { sourcemap: true, outDir: 'dist', emptyOutDir: true } });
    deploys = [
      await preview({ root: app, configFile: false, logLevel: 'silent', preview: { host: '127.0.0.1', port: 0 } }),
      await preview({ root: app, configFile: false, logLevel: 'silent', preview: { host: '127.0.0.1', port: 0 } }),
    ];
    dt = await startDashboard();
    b = await openBrowser(dt.url);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await Promise.all(deploys.map((d) => d.close()));
    await dt?.close();
    rmSync(app, { recursive: true, force: true });
  });

  it('uploads the maps the CLI finds in the Vite layout, and the stack reads at the original lines', async () => {
    const origins = deploys.map((d) => d.resolvedUrls!.local[0]!.replace(/\/$/, ''));
    expect(new Set(origins).size).toBe(2);
    const stacks = [await stackThrownOnClick(b, origins[0]!, 'Pay'), await stackThrownOnClick(b, origins[1]!, 'Pay')];
    expect(stacks[0]).toMatch(/\/assets\/index-[\w-]+\.js:\d+:\d+/);
    expect(stacks[0]).not.toContain('checkout.js'); // minified: the source is not in it

    const { id, apiKey } = dt.firstProject!;
    const made = await runCli(['upload-token', 'create', id, 'vite build', '--api', dt.url, '--token', dt.operatorToken, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const out = await runCli(['sourcemaps', 'upload', id, app, '--release', 'v1', '--api', dt.url, '--json'], { DEVTRAIL_UPLOAD_TOKEN: JSON.parse(made.stdout).token });
    expect(out.code, out.stderr).toBe(0);
    const uploaded = (JSON.parse(out.stdout) as { uploaded: Array<{ url: string }> }).uploaded.map((u) => u.url);
    expect(uploaded).toEqual([expect.stringMatching(/^~\/assets\/index-[\w-]+\.js$/)]);

    const fingerprints: unknown[] = [];
    for (const s of stacks) {
      const r = await ingest(dt.url, apiKey, 'errors', { service: 'shop-web', release: 'v1', error_message: s.split('\n')[0]!, stack_trace: s });
      expect(r.status).toBe(200);
      fingerprints.push(r.body.fingerprint);
    }
    expect(fingerprints[1]).toBe(fingerprints[0]); // two origins, one group

    const read = () => fetch(`${dt.url}/api/projects/${id}/error-groups/${fingerprints[0]}/symbolicated`, { headers: { authorization: `Bearer ${dt.operatorToken}` } });
    let answer:
      | { maps_found: number; frames: Array<{ original: { file: string; line: number; function: string; context: { lines: string[] } | null } | null }> }
      | undefined;
    await expect
      .poll(
        async () => {
          const r = await read();
          answer = r.status === 200 ? await r.json() : undefined;
          return answer?.maps_found ?? 0;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    const top = answer!.frames.find((f) => f.original)!.original!;
    expect(top.file).toMatch(/src\/checkout\.js$/);
    expect(top.line).toBe(3);
    expect(top.context?.lines.join('\n')).toContain('cart.items.reduce');
  }, 120_000);
});
