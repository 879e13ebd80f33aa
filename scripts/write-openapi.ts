import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../services/receiver/src/openapi.ts';

// `npm run openapi`: regenerates docs/openapi.json from the contract's zod schemas.
// services/receiver/test/openapi.test.ts fails while the checked-in copy differs.
const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
