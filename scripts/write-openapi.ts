import { writeFileSync } from 'node:fs';
import { publishedOpenApi } from '../services/embedded/src/openapi.ts';

// `npm run openapi`: regenerates docs/openapi.json, the document of every route, from the
// schemas. services/receiver/test/openapi.test.ts fails while the checked-in copy differs.
const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(publishedOpenApi(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
