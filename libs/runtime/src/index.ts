export { openAdapters, type Adapters, type OpenOptions } from './adapters.ts';
export { readiness, type Readiness, type CheckResult } from './readiness.ts';
export { registerHealthRoutes, documentHealth } from './health-routes.ts';
