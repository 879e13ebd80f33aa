export { startEmbedded, type Embedded } from './embedded.ts';
export { publishedOpenApi } from './openapi.ts';
