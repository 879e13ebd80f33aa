import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { debugIdOfFile, debugIdOfMap, sourceMappingUrlOf } from './conventions.ts';

// A build directory's source maps, each with the URL its minified file is served at
// (docs/source-maps.md, "Uploading from a build"). Next.js (`.next/static` is served at
// /_next/static) and Vite (`dist` is served at /) are recognised; any other layout names
// its URL prefix.

export interface FoundMap {
  file: string;
  url: string;
  map: string;
  debugId: string | null;
}

export interface BuildLayout {
  root: string;
  urlPrefix: string;
  kind: 'next' | 'vite' | 'custom';
}

export function detectLayout(dir: string, urlPrefix?: string): BuildLayout {
  const abs = resolve(dir);
  if (urlPrefix) return { root: abs, urlPrefix, kind: 'custom' };
  if (existsSync(join(abs, '.next/static'))) return { root: join(abs, '.next/static'), urlPrefix: '~/_next/static', kind: 'next' };
  if (abs.endsWith(`${sep}.next`) && existsSync(join(abs, 'static'))) return { root: join(abs, 'static'), urlPrefix: '~/_next/static', kind: 'next' };
  const dist = existsSync(join(abs, 'dist/index.html')) ? join(abs, 'dist') : abs;
  if (existsSync(join(dist, 'index.html')) || existsSync(join(dist, '.vite/manifest.json'))) return { root: dist, urlPrefix: '~', kind: 'vite' };
  throw new Error(`${dir}: not a Next.js app (.next/static) nor a Vite build (dist/index.html); pass --url-prefix`);
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return e === 'node_modules' ? [] : jsFiles(p);
    return /\.(m|c)?js$/.test(e) ? [p] : [];
  });
}

function mapOf(file: string, text: string): string | null {
  const ref = sourceMappingUrlOf(text);
  if (ref?.startsWith('data:')) {
    const comma = ref.indexOf(',');
    const data = ref.slice(comma + 1);
    return ref.slice(0, comma).endsWith(';base64') ? Buffer.from(data, 'base64').toString('utf8') : decodeURIComponent(data);
  }
  const candidate = ref && !/^[a-z]+:/i.test(ref) ? join(dirname(file), ref.split(/[?#]/)[0]) : `${file}.map`;
  return existsSync(candidate) ? readFileSync(candidate, 'utf8') : null;
}

export function findMaps(layout: BuildLayout): { found: FoundMap[]; withoutMap: string[] } {
  const found: FoundMap[] = [];
  const withoutMap: string[] = [];
  const prefix = layout.urlPrefix.replace(/\/+$/, '');
  for (const file of jsFiles(layout.root)) {
    const text = readFileSync(file, 'utf8');
    const map = mapOf(file, text);
    const rel = relative(layout.root, file).split(sep).join('/');
    if (!map) {
      withoutMap.push(rel);
      continue;
    }
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(map);
    } catch {
      withoutMap.push(rel);
      continue;
    }
    found.push({ file: rel, url: `${prefix}/${rel}`, map, debugId: debugIdOfFile(text) ?? debugIdOfMap(parsed) });
  }
  return { found, withoutMap };
}

/** Posts one map to the source-maps API (the caller's client: its auth, its errors); resolves with the stored map's row. */
export type PostMap = (path: string, body: { release: string; url: string; source_map: string; debug_id?: string }) => Promise<{ source_map: unknown }>;

/** Uploads every map of a build, four at a time; shared by the admin CLI and the SDK's `devtrail-sourcemaps`. */
export async function uploadBuildMaps(projectId: string, layout: BuildLayout, release: string, post: PostMap): Promise<{ uploaded: unknown[]; withoutMap: string[] }> {
  const { found, withoutMap } = findMaps(layout);
  if (found.length === 0) throw new Error(`no source maps under ${layout.root} (build with source maps on: docs/source-maps.md)`);
  const uploaded: unknown[] = [];
  for (let i = 0; i < found.length; i += 4) {
    const part = await Promise.all(
      found
        .slice(i, i + 4)
        .map((m) =>
          post(`/api/projects/${encodeURIComponent(projectId)}/source-maps`, { release, url: m.url, source_map: m.map, ...(m.debugId ? { debug_id: m.debugId } : {}) }),
        ),
    );
    uploaded.push(...part.map((d) => d.source_map));
  }
  return { uploaded, withoutMap };
}
