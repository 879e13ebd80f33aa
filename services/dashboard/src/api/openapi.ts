import { devtrailOpenApi, type DocumentRoutes } from '@devtrail/http/api-docs';
import { documentHealth } from '@devtrail/runtime';
import { documentAdminApi } from './admin-docs.ts';
import { documentDataApi } from '../data/data-docs.ts';
import { documentActOnErrors } from './act-on-errors-docs.ts';
import { documentGroup } from '@devtrail/http/route';
import { READ_API } from './read-api.ts';
import { SAVED_QUERY_ROUTES } from './saved-queries.ts';
import { documentUploadTokens } from './upload-token-docs.ts';

// The dashboard's route groups, documented beside their handlers, in the document's order.
export const DASHBOARD_API_DOCS: DocumentRoutes[] = [
  documentAdminApi,
  documentDataApi,
  ...[...READ_API, SAVED_QUERY_ROUTES].map(documentGroup),
  documentActOnErrors,
  documentUploadTokens,
];

let cached: Record<string, unknown> | undefined;

/** What the dashboard service serves at GET /openapi.json: its own routes and the health routes. */
export function dashboardOpenApi(): Record<string, unknown> {
  cached ??= devtrailOpenApi([documentHealth, ...DASHBOARD_API_DOCS]);
  return structuredClone(cached);
}
