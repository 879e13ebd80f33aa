export * from './schemas.ts';
export * from './events.ts';
export * from './kinds.ts';
export * from './to-events.ts';
export * from './vercel-drain.ts';
export { fingerprint, fingerprintParts, normaliseMessage, normaliseFrames, normalisePath, errorTypeOf, type FingerprintInput } from './fingerprint.ts';
export { jsonDepth } from './json-depth.ts';
export { fastLogsToEvents, fastLogEvent, isPlainObject, ISO_DATETIME } from './fast-paths.ts';
