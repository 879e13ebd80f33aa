// JSON calls to the dashboard's own APIs (same origin, session cookie). Every mutating
// call carries the CSRF token that /auth/me handed out.

let csrfToken = '';
let onUnauthorized = () => {};

/** @param {string | undefined} token */
export function setCsrfToken(token) {
  csrfToken = token || '';
}

/** @param {() => void} fn */
export function setUnauthorizedHandler(fn) {
  onUnauthorized = fn;
}

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} body the parsed JSON error body
   */
  constructor(status, body) {
    super(messageOf(status, body));
    this.status = status;
    this.body = body;
  }
}

/**
 * @param {number} status
 * @param {any} body
 */
function messageOf(status, body) {
  if (body && typeof body.error === 'string') return body.error;
  const issues = Array.isArray(body?.error?.issues) ? body.error.issues : null;
  if (issues) return issues.map((/** @type {{ path?: string[], message: string }} */ i) => `${(i.path || []).join('.') || 'value'}: ${i.message}`).join('; ');
  return `Request failed (${status})`;
}

/** @typedef {Record<string, string | number | boolean | string[] | null | undefined>} Query */

/**
 * Drops empty values so they never reach the query string.
 * @param {Query} [query]
 */
export function queryString(query) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query || {})) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * @typedef {object} ApiOptions
 * @property {string} [method]
 * @property {unknown} [body] sent as JSON
 * @property {Query} [query]
 * @property {AbortSignal} [signal]
 */

/**
 * The parsed JSON answer; a non-2xx answer throws ApiError.
 * @param {string} path
 * @param {ApiOptions} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = 'GET', body, query, signal } = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = csrfToken;
  const res = await fetch(path + queryString(query), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/auth/')) onUnauthorized();
    throw new ApiError(res.status, data);
  }
  return data;
}

/** Per-project API paths; ids are encoded, never spliced raw. */
export const projectApi = (/** @type {string} */ projectId, rest = '') => `/api/projects/${encodeURIComponent(projectId)}${rest}`;
export const adminApi = (/** @type {string} */ projectId, rest = '') => `/api/admin/projects/${encodeURIComponent(projectId)}${rest}`;
