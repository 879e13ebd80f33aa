import { devtrailOpenApi, type DocumentRoutes } from '@devtrail/http/api-docs';
import { documentHealth } from '@devtrail/runtime';
import { documentIngest } from './ingest-docs.ts';
import { documentOtlp } from './otlp-openapi.ts';
import { documentSchemas } from './schema-routes.ts';
import { documentPromptRead } from './prompts/prompt-read.ts';

// The receiver's route groups, documented beside their handlers, in the document's order.
export const RECEIVER_API_DOCS: DocumentRoutes[] = [documentIngest, documentOtlp, documentPromptRead, documentSchemas];

let cached: Record<string, unknown> | undefined;

/** What a receiver serves at GET /openapi.json: its own routes and the health routes. */
export function receiverOpenApi(): Record<string, unknown> {
  cached ??= devtrailOpenApi([...RECEIVER_API_DOCS, documentHealth]);
  return structuredClone(cached);
}
