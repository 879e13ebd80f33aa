// Builds dist/esm (ES modules) and dist/cjs (CommonJS) with two tsc runs. Each
// output folder gets its own package.json so Node reads the .js files in the
// right module format regardless of the package's "type".
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const [config, type] of [
  ['tsconfig.esm.json', 'module'],
  ['tsconfig.cjs.json', 'commonjs'],
]) {
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, config)], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  const out = join(root, 'dist', type === 'module' ? 'esm' : 'cjs');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type }, null, 2) + '\n');
}
// The script-tag build (docs/sdk.md#script-tag): the browser entry as one minified IIFE that
// sets `window.devtrail`; its size is held in docs/sdk.md by test/bundle-size.test.ts.
const { build } = await import('esbuild');
await build({
  entryPoints: [join(root, 'src/index.ts')],
  bundle: true,
  format: 'iife',
  globalName: 'devtrail',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  outfile: join(root, 'dist/browser/devtrail.min.js'),
});
// The source-map CLI (docs/sdk.md#install): the upload shared with the admin CLI
// (@devtrail/source-maps/build) bundled into one file, so the package keeps no dependencies.
await build({
  entryPoints: [join(root, 'cli/sourcemaps.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
  outfile: join(root, 'dist/cli/devtrail-sourcemaps.mjs'),
});
console.log('built dist/esm, dist/cjs, dist/browser/devtrail.min.js and dist/cli/devtrail-sourcemaps.mjs');
