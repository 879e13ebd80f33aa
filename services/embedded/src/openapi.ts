import { devtrailOpenApi } from '@devtrail/http/api-docs';
import { DASHBOARD_API_DOCS } from '@devtrail/dashboard';
import { RECEIVER_API_DOCS } from '@devtrail/receiver';
import { documentHealth } from '@devtrail/runtime';

// The published contract (docs/openapi.json, `npm run openapi`): every route of devtrail,
// as the embedded process serves them all at GET /openapi.json.

let cached: Record<string, unknown> | undefined;

export function publishedOpenApi(): Record<string, unknown> {
  cached ??= devtrailOpenApi([...RECEIVER_API_DOCS, documentHealth, ...DASHBOARD_API_DOCS]);
  return structuredClone(cached);
}
