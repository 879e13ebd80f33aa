// Holds docs/sdk.md#bundle-size to what the entries weigh: each entry bundled from src the way
// an app's bundler would (minified, its optional peer dependencies left out), measured
// minified and gzipped, and compared with the table's figures (within 5 %). A failure prints
// the measured table to paste in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, pkgDir, repoRoot } from './helpers/built-package.js';

/** Entry -> its source and the platform it is bundled for. */
const ENTRIES: Array<{ entry: string; src: string; platform: 'browser' | 'node' }> = [
  { entry: '@devtrail/sdk (browser)', src: 'src/index.ts', platform: 'browser' },
  { entry: '@devtrail/sdk (Node)', src: 'src/node.ts', platform: 'node' },
  { entry: '@devtrail/sdk/express', src: 'src/express.ts', platform: 'node' },
  { entry: '@devtrail/sdk/hono', src: 'src/hono.ts', platform: 'node' },
  { entry: '@devtrail/sdk/fastify', src: 'src/fastify.ts', platform: 'node' },
  { entry: '@devtrail/sdk/next', src: 'src/next/index.ts', platform: 'browser' },
  { entry: '@devtrail/sdk/next/react', src: 'src/next/react.ts', platform: 'browser' },
];
const PEERS = ['express', 'fastify', 'hono', 'react', 'react/jsx-runtime', '@opentelemetry/api'];
const TOLERANCE = 0.05;

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

async function measure(src: string, platform: 'browser' | 'node'): Promise<{ min: number; gzip: number }> {
  const out = await build({
    entryPoints: [join(pkgDir, src)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    target: 'es2020',
    external: PEERS,
    write: false,
    legalComments: 'none',
  });
  const code = out.outputFiles[0].contents;
  return { min: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

/** The table's rows: | `entry` | minified | gzip | */
function documented(): Map<string, { min: number; gzip: number }> {
  const doc = readFileSync(join(repoRoot, 'docs/sdk.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Bundle size'));
  const rows = new Map<string, { min: number; gzip: number }>();
  for (const m of section.matchAll(/^\| `([^`]+)` \| ([\d.]+) KB \| ([\d.]+) KB \|/gm)) rows.set(m[1], { min: Number(m[2]) * 1000, gzip: Number(m[3]) * 1000 });
  return rows;
}

describe('bundle size of each entry (docs/sdk.md#bundle-size)', () => {
  it('the table in docs/sdk.md holds what each entry weighs, minified and gzipped, within 5 %', async () => {
    await ensureBuilt(); // the script-tag build is measured as built
    const measured: Array<{ entry: string; min: number; gzip: number }> = [];
    for (const e of ENTRIES) measured.push({ entry: e.entry, ...(await measure(e.src, e.platform)) });
    const iife = readFileSync(join(pkgDir, 'dist/browser/devtrail.min.js'));
    measured.push({ entry: 'dist/browser/devtrail.min.js (script tag)', min: iife.byteLength, gzip: gzipSync(iife, { level: 9 }).byteLength });
    const table = measured.map((m) => `| \`${m.entry}\` | ${kb(m.min)} | ${kb(m.gzip)} |`).join('\n');
    const rows = documented();
    for (const m of measured) {
      const doc = rows.get(m.entry);
      expect(doc, `no row for ${m.entry}; measured:\n${table}`).toBeDefined();
      expect(Math.abs(doc!.min - m.min) / m.min, `${m.entry} minified; measured:\n${table}`).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs(doc!.gzip - m.gzip) / m.gzip, `${m.entry} gzip; measured:\n${table}`).toBeLessThanOrEqual(TOLERANCE);
    }
  }, 60_000);
});
