export { openAdapters, type Adapters, type OpenOptions } from './adapters.ts';
export { readiness, registerProbes, PROBE_PATHS, ALL_DEPENDENCIES, type Readiness, type CheckResult, type Dependency } from './readiness.ts';
export { registerHealthRoutes, documentHealth } from './health-routes.ts';
