import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { incompatibilities, jsonSchemaFiles, jsonSchemaIndex } from '@devtrail/contract/json-schema';

// `npm run openapi` (after docs/openapi.json): rewrites docs/schemas/, the JSON Schema of the
// Kafka messages (docs/topics.md, "Schemas"). Refuses a change that breaks the consumers of
// the checked-in version (libs/contract/src/schema-compat.ts): that takes a new schema
// version. libs/contract/test/json-schema.test.ts fails while the checked-in copy differs.
const dir = new URL('../docs/schemas/', import.meta.url);
const files = jsonSchemaFiles();
const text = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

const refusals: string[] = [];
for (const [name, schema] of Object.entries(files)) {
  const path = new URL(name, dir);
  if (!existsSync(path)) continue;
  for (const i of incompatibilities(JSON.parse(readFileSync(path, 'utf8')), schema)) refusals.push(`  ${name} ${i.at}: ${i.what} (breaks ${i.breaks})`);
}
if (refusals.length > 0) {
  console.error(`docs/schemas not written: the change breaks consumers of the published schema:\n${refusals.join('\n')}`);
  console.error('Keep the change compatible, or make it a new message version (docs/topics.md, "Evolution").');
  process.exit(1);
}
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) if (f.endsWith('.json') && f !== 'index.json' && !(f in files)) rmSync(new URL(f, dir));
for (const [name, schema] of Object.entries(files)) writeFileSync(new URL(name, dir), text(schema));
writeFileSync(new URL('index.json', dir), text(jsonSchemaIndex(files)));
console.log(`wrote ${dir.pathname} (${Object.keys(files).length + 1} files)`);
