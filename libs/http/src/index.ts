export * from './http-answer.ts';
export { parseJsonBody, wellFormedDeep } from './json-body.ts';
export { createHttpApp } from './http-app.ts';
