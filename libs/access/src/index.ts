export { API_KEY_PATTERN, generateApiKey, hashApiKey, keyDisplayPrefix, safeEqual } from './api-key.ts';
export { originAllowed, normaliseOriginEntry, ORIGIN_ENTRY, MAX_ORIGIN_ENTRY_LENGTH } from './origins.ts';
export { UPLOAD_TOKEN_PATTERN, generateUploadToken, uploadTokenDisplayPrefix } from './upload-token.ts';
