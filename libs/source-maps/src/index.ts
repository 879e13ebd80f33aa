export { urlKey, MAX_URL_KEY_LENGTH } from './url-key.ts';
export { sourceMappingUrlOf, debugIdOfFile, debugIdOfMap, isUuid } from './conventions.ts';
export { parseStack, type JsFrame } from './stack-frames.ts';
export { symbolicate, parseMap, CONTEXT_LINES, type SymbolicatedFrame, type MapLookup } from './symbolicate.ts';
export { createMapPool, MapBudgetError, type MapBudget, type MapPool } from './worker/map-pool.ts';
export type { CheckResult, SymbolicateResult } from './worker/protocol.ts';
