export * from './http-answer.ts';
export { parseJsonBody, wellFormedDeep } from './json-body.ts';
export { checkJsonShape, JSON_TOO_COMPLEX, MAX_JSON_CONTAINERS, MAX_JSON_OBJECT_KEYS, MAX_JSON_VALUES } from './json-shape.ts';
export { createHttpApp, type HttpAppOptions } from './http-app.ts';
export { minChars, nameText, pgText } from './stored-text.ts';
