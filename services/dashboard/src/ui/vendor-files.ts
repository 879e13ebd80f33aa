import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

// The browser libraries, served as ES modules straight from node_modules (no bundler, no
// build step): a fixed allow-list, read once, gzipped once, revalidated by ETag.

const require = createRequire(import.meta.url);

/** A package's folder: up from its main entry to the package.json that names it (not every package exports ./package.json). */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (dir !== dirname(dir)) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj) && (JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === name) return dir;
    dir = dirname(dir);
  }
  throw new Error(`cannot find the folder of package ${name}`);
}

const FILES: Record<string, { pkg: string; path: string; type: string }> = {
  'preact.mjs': { pkg: 'preact', path: 'dist/preact.mjs', type: 'text/javascript' },
  'preact-hooks.mjs': { pkg: 'preact', path: 'hooks/dist/hooks.mjs', type: 'text/javascript' },
  'htm.mjs': { pkg: 'htm', path: 'dist/htm.mjs', type: 'text/javascript' },
  'htm-preact.mjs': { pkg: 'htm', path: 'preact/index.mjs', type: 'text/javascript' },
  'uplot.mjs': { pkg: 'uplot', path: 'dist/uPlot.esm.js', type: 'text/javascript' },
  'uplot.css': { pkg: 'uplot', path: 'dist/uPlot.min.css', type: 'text/css' },
};

const SPECIFIERS: Record<string, string> = {
  preact: 'preact.mjs',
  'preact/hooks': 'preact-hooks.mjs',
  htm: 'htm.mjs',
  'htm/preact': 'htm-preact.mjs',
  uplot: 'uplot.mjs',
};

/** The import map: bare specifiers the UI's modules import, mapped to content-versioned URLs (cached for good). */
export function importMapOf(files: Map<string, VendorFile>): { imports: Record<string, string> } {
  return { imports: Object.fromEntries(Object.entries(SPECIFIERS).map(([spec, name]) => [spec, vendorUrl(files, name)])) };
}

export const vendorUrl = (files: Map<string, VendorFile>, name: string) => `/ui/vendor/${name}?v=${files.get(name)!.etag.slice(1, 13)}`;

export interface VendorFile {
  type: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

export function loadVendorFiles(): Map<string, VendorFile> {
  const out = new Map<string, VendorFile>();
  for (const [name, f] of Object.entries(FILES)) {
    const body = readFileSync(join(packageDir(f.pkg), f.path));
    out.set(name, { type: `${f.type}; charset=utf-8`, body, gzip: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` });
  }
  return out;
}
