import { readFileSync } from 'node:fs';
import { openApiDocument } from '@devtrail/http/api-docs';
import { documentAdminApi } from '@devtrail/dashboard/admin-docs';
import { documentReadApi } from '@devtrail/dashboard/read-docs';
import { documentIngest } from './ingest-docs.ts';
import { documentHealth } from './health-routes.ts';
import { documentOtlp } from './otlp-openapi.ts';

// The published contract (docs/openapi.json, GET /openapi.json): every route group
// documents itself beside its handlers; this lists the groups, in the document's order.

const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

let cached: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of every HTTP endpoint: ingest, health, admin and read APIs. */
export function buildOpenApiDocument(): Record<string, unknown> {
  cached ??= openApiDocument(
    {
      info: {
        title: 'devtrail',
        version: VERSION,
        description:
          'Telemetry ingestion (logs, errors, trace spans, LLM usage, Vercel log drains) and the admin and read APIs. ' +
          'Every answer is JSON; an unknown path or method answers 404 `{"error":"Not found: <METHOD> <path>"}`. ' +
          'Reference: docs/api.md.',
      },
      servers: [
        { url: 'http://127.0.0.1:3000', description: 'Receiver (PORT). In embedded mode (npm start) every path is served here.' },
        { url: 'http://127.0.0.1:3001', description: 'Dashboard service in distributed mode (DASHBOARD_PORT): /api/* and /health.' },
      ],
    },
    [documentIngest, documentOtlp, documentHealth, documentAdminApi, documentReadApi],
  );
  return structuredClone(cached);
}
