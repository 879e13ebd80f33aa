import type { RouteGroup } from '@devtrail/http/route';
import { ERROR_ROUTES } from '../errors/errors.ts';
import { INGESTION_ROUTES } from './ingestion.ts';
import { LLM_ROUTES } from './llm.ts';
import { LOG_ROUTES } from './logs.ts';
import type { ReadDeps } from './read-deps.ts';
import { RELEASE_ROUTES } from './releases.ts';
import { TRACE_ROUTES } from './traces.ts';
import { METRIC_ROUTES } from '../metrics/metrics.ts';

// The read API (docs/api.md, "Read API"): one resource per file, each route declared once
// (libs/http route.ts), in the OpenAPI document's order.
export const READ_API: RouteGroup<ReadDeps>[] = [LOG_ROUTES, TRACE_ROUTES, ERROR_ROUTES, LLM_ROUTES, RELEASE_ROUTES, METRIC_ROUTES, INGESTION_ROUTES];
