// Builds the publishable @devtrail/consumer-kit into dist/ (`npm run build -w @devtrail/consumer-kit`;
// then `npm pack ./libs/consumer-kit/dist` or `npm publish ./libs/consumer-kit/dist`).
//
// Inside the repository the kit is a private workspace package read from its sources, like
// the packages it uses (contract, kinds, message-log, failures, ...), none of them published.
// The published package bundles them: one ES module (esbuild) and one declaration file
// (rollup-plugin-dts), with the npm packages they import as its dependencies, at the versions
// the workspace declares. dist/ holds a package.json of its own, so the repository's
// package.json stays the workspace's.
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const libs = join(root, '..');
const out = join(root, 'dist');
const entry = join(root, 'src/package-entry.ts');
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));
const isWorkspace = (spec) => spec.startsWith('@devtrail/');
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
/** The workspace's libs/* packages: folder name and package.json. */
const workspaceLibs = () =>
  readdirSync(libs, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      try {
        return [{ dir: d.name, pkg: json(join(libs, d.name, 'package.json')) }];
      } catch {
        return [];
      }
    });

// devtrail's modules run nothing on import that the kit needs; telling esbuild so lets it
// leave out what the kit never calls (the receiver's OTLP decoding and its .proto files, the
// ClickHouse client, and message-log's native checksum for kafkajs, a speed-up of the
// receiver: kafkajs's own checksum does the same).
const SIDE_EFFECTS = [];
// The OpenAPI helpers the kinds' docs import: only the receiver and the dashboard build the
// OpenAPI document. In the bundle each export throws, so zod-to-openapi is not a dependency.
const STUBBED = join(libs, 'http/src/api-docs.ts');
const stub = (file) =>
  [...readFileSync(file, 'utf8').matchAll(/^export (?:const|function) (\w+)/gm)]
    .map(([, name]) => `export const ${name} = () => { throw new Error('${name}: OpenAPI is not part of @devtrail/consumer-kit'); };`)
    .join('\n');

const depsOnly = process.argv.includes('--deps');
if (!depsOnly) rmSync(out, { recursive: true, force: true });
const bundled = await build({
  entryPoints: [entry],
  outfile: join(out, 'lib/index.js'),
  write: !depsOnly,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  metafile: true,
  logLevel: 'warning',
  logOverride: { 'ignored-bare-import': 'silent' }, // the native checksum, left out on purpose (SIDE_EFFECTS)
  plugins: [
    {
      name: 'workspace-only',
      setup(b) {
        // npm packages stay imports (the package's dependencies); workspace packages are bundled.
        b.onResolve({ filter: /.*/ }, async (a) => {
          if (a.pluginData?.inner || a.path.startsWith('node:')) return undefined;
          if (/^[^./]/.test(a.path) && !isWorkspace(a.path)) return { path: a.path, external: true };
          const r = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: { inner: true } });
          if (r.errors.length > 0) return { errors: r.errors };
          if (r.path === STUBBED) return { path: r.path, namespace: 'stub', sideEffects: false };
          return { path: r.path, sideEffects: r.path.startsWith(libs) ? SIDE_EFFECTS.includes(r.path) : r.sideEffects };
        });
        b.onLoad({ filter: /.*/, namespace: 'stub' }, (a) => ({ contents: stub(a.path), loader: 'js' }));
      },
    },
  ],
});

// The npm packages the bundle imports, with the ranges the workspace packages declare.
const imported = new Set(
  Object.values(bundled.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !i.path.startsWith('node:'))
    .map((i) => packageOf(i.path)),
);
const ranges = {};
for (const { pkg } of workspaceLibs()) for (const [name, range] of Object.entries(pkg.dependencies ?? {})) if (!isWorkspace(name)) ranges[name] ??= range;
const dependencies = {};
for (const name of [...imported].sort()) {
  if (!ranges[name]) throw new Error(`the bundle imports ${name}, which no workspace package declares`);
  dependencies[name] = ranges[name];
}

// `--deps`: print them and stop (deploy/scripts/consumer-kit.sh caches them for the offline pack test).
if (depsOnly) {
  console.log(JSON.stringify(dependencies));
  process.exit(0);
}

// One declaration file; workspace packages resolved to their sources (their exports maps).
const paths = {};
for (const { dir, pkg } of workspaceLibs()) {
  for (const [sub, target] of Object.entries(pkg.exports ?? {}))
    if (typeof target === 'string' && target.endsWith('.ts')) paths[join(pkg.name, sub)] = [relative(root, join(libs, dir, target))];
}
// The kinds' own types are built from their whole definitions (tables, OpenAPI docs): the
// published declarations describe events from the JSON Schema of each kind instead
// (docs/schemas/, generated from the same definitions), so only public types are exposed.
const KINDS_PACKAGE = '@devtrail/kinds';
const types = await rollup({
  input: entry,
  external: (id) => id === KINDS_PACKAGE || (!isWorkspace(id) && !id.startsWith('.') && !id.startsWith('/')),
  plugins: [dts({ tsconfig: join(root, 'tsconfig.build.json'), respectExternal: true, compilerOptions: { baseUrl: root, paths } })],
});
const { output } = await types.generate({ format: 'es' });
writeFileSync(join(out, 'lib/index.d.ts'), withKindTypes(output[0].code));

/** The declarations with their import of @devtrail/kinds replaced by event types generated from docs/schemas/. */
function withKindTypes(code) {
  const schemas = join(libs, '../docs/schemas');
  const index = json(join(schemas, 'index.json'));
  const kinds = Object.keys(index.events);
  const tsOf = (s) => {
    if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
    if (s.type === 'string') return 'string';
    if (s.type === 'integer' || s.type === 'number') return 'number';
    if (s.type === 'boolean') return 'boolean';
    if (s.type === 'array') return `Array<${tsOf(s.items ?? {})}>`;
    if (s.type === 'object' && s.properties)
      return `{ ${Object.entries(s.properties)
        .map(([k, v]) => `${k}: ${tsOf(v)};`)
        .join(' ')} }`;
    if (s.type === 'object') return 'Record<string, unknown>';
    return 'unknown';
  };
  const typeName = (k) => `${k[0].toUpperCase()}${k.slice(1)}Event`;
  // Every field is present once decoded (defaults applied to what older messages lack).
  const events = kinds.map((k) => {
    const s = json(join(schemas, index.events[k]));
    return `/** One ${k} event's data (docs/topics.md; JSON Schema ${index.events[k]}). */\ninterface ${typeName(k)} ${tsOf({ ...s, type: 'object' })}`;
  });
  const declared = {
    EventKind: `type EventKind = ${kinds.map((k) => JSON.stringify(k)).join(' | ')};`,
    EventDataByKind: `type EventDataByKind = { ${kinds.map((k) => `${k}: ${typeName(k)};`).join(' ')} };`,
    EVENT_KINDS: 'declare const EVENT_KINDS: EventKind[];',
    ...Object.fromEntries(kinds.map((k) => [typeName(k), ''])),
  };
  const importLine = new RegExp(`^import \\{([^}]*)\\} from '${KINDS_PACKAGE}';\\n`, 'm');
  const reExport = new RegExp(`^export \\{([^}]*)\\} from '${KINDS_PACKAGE}';$`, 'm');
  code = code.replace(reExport, 'export {$1};');
  const m = importLine.exec(code);
  if (!m) return code;
  const names = m[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(n in declared));
  if (unknown.length > 0) throw new Error(`the kit's declarations use ${unknown.join(', ')} from ${KINDS_PACKAGE}: declare them in scripts/build.mjs`);
  const block = [...events, ...Object.values(declared).filter(Boolean)].join('\n');
  return code.replace(importLine, `${block}\n`);
}

const source = json(join(root, 'package.json'));
const manifest = {
  name: source.name,
  version: source.version,
  description: source.description,
  license: 'MIT',
  type: 'module',
  main: './lib/index.js',
  types: './lib/index.d.ts',
  exports: { '.': { types: './lib/index.d.ts', default: './lib/index.js' }, './package.json': './package.json' },
  files: ['lib', 'README.md'],
  engines: json(join(libs, '../package.json')).engines, // the repository's own: the kit runs where devtrail runs
  dependencies,
};
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(root, 'README.md'), join(out, 'README.md'));
console.log(`built ${relative(process.cwd(), out)}: ${source.name}@${source.version}, dependencies ${Object.keys(dependencies).join(', ')}`);
