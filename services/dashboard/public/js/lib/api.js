// JSON calls to the dashboard's own APIs (same origin, session cookie). Every mutating
// call carries the CSRF token that /auth/me handed out.

let csrfToken = '';
let onUnauthorized = () => {};

export function setCsrfToken(token) {
  csrfToken = token || '';
}

export function setUnauthorizedHandler(fn) {
  onUnauthorized = fn;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(messageOf(status, body));
    this.status = status;
    this.body = body;
  }
}

function messageOf(status, body) {
  if (body && typeof body.error === 'string') return body.error;
  const issues = body && body.error && Array.isArray(body.error.issues) ? body.error.issues : null;
  if (issues) return issues.map((i) => `${(i.path || []).join('.') || 'value'}: ${i.message}`).join('; ');
  return `Request failed (${status})`;
}

/** Drops empty values so they never reach the query string. */
export function queryString(query) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query || {})) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export async function api(path, { method = 'GET', body, query, signal } = {}) {
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
export const projectApi = (projectId, rest = '') => `/api/projects/${encodeURIComponent(projectId)}${rest}`;
export const adminApi = (projectId, rest = '') => `/api/admin/projects/${encodeURIComponent(projectId)}${rest}`;
