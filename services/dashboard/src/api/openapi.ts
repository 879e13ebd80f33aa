import { devtrailOpenApi, type DocumentRoutes } from '@devtrail/http/api-docs';
import { documentHealth } from '@devtrail/runtime';
import { PROJECT_ROUTES } from './projects.ts';
import { ALERT_ROUTES } from './alerts.ts';
import { DATA_ROUTES } from '../data/routes.ts';
import { DELETION_ROUTES } from '../deletion/routes.ts';
import { TRIAGE_ROUTES } from '../errors/triage-routes.ts';
import { documentGroup } from '@devtrail/http/route';
import { OWNERSHIP_ROUTES } from '../errors/ownership-routes.ts';
import { READ_API } from './read-api.ts';
import { SCORE_ROUTES } from '../scores/routes.ts';
import { SAVED_QUERY_ROUTES } from './saved-queries.ts';
import { SOURCE_MAP_ROUTES } from '../source-maps/maps.ts';
import { UPLOAD_TOKEN_ROUTES } from '../source-maps/upload-tokens.ts';
import { LLM_PRICE_ROUTES } from '../llm-prices/routes.ts';
import { PROMPT_ROUTES } from '../prompts/prompt-routes.ts';

// The dashboard's route groups, documented beside their handlers, in the document's order.
export const DASHBOARD_API_DOCS: DocumentRoutes[] = [
  documentGroup(PROJECT_ROUTES),
  documentGroup(DATA_ROUTES),
  documentGroup(DELETION_ROUTES),
  ...[...READ_API, SAVED_QUERY_ROUTES].map(documentGroup),
  documentGroup(PROMPT_ROUTES),
  documentGroup(SCORE_ROUTES),
  documentGroup(TRIAGE_ROUTES),
  documentGroup(OWNERSHIP_ROUTES),
  documentGroup(ALERT_ROUTES),
  documentGroup(SOURCE_MAP_ROUTES),
  documentGroup(UPLOAD_TOKEN_ROUTES),
  documentGroup(LLM_PRICE_ROUTES),
];

let cached: Record<string, unknown> | undefined;

/** What the dashboard service serves at GET /openapi.json: its own routes and the health routes. */
export function dashboardOpenApi(): Record<string, unknown> {
  cached ??= devtrailOpenApi([documentHealth, ...DASHBOARD_API_DOCS]);
  return structuredClone(cached);
}
