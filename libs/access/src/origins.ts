// Allowed origins (docs/api.md): an empty list allows every origin; a request without Origin (server to
// server) always passes. Entries are a host ("example.com"), a wildcard host
// ("*.example.com", subdomains only) or a full origin ("https://app.example.com:8443").
// The rule for an entry is one pattern, so the admin API's schema (and the OpenAPI
// document generated from it) says exactly what the API accepts.

const HOST = '[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*';
export const ORIGIN_ENTRY = new RegExp(`^((\\*\\.)?${HOST}|[hH][tT][tT][pP][sS]?://${HOST}(:[0-9]{1,5})?/?)$`);
export const MAX_ORIGIN_ENTRY_LENGTH = 253;

/** An entry as stored: lower-case, no trailing slash. */
export const normaliseOriginEntry = (entry: string) => entry.toLowerCase().replace(/\/$/, '');

/** A full origin entry as the browser would send it (":443" on https is no port at all). */
function entryOrigin(entry: string): string | undefined {
  try {
    return new URL(entry).origin;
  } catch {
    return undefined;
  }
}

export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined || allowed.length === 0) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" and garbage origins never match a list
  }
  const host = url.hostname.toLowerCase();
  return allowed.some((raw) => {
    const entry = normaliseOriginEntry(raw.trim());
    if (entry.includes('://')) return url.origin === entryOrigin(entry);
    if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
    return host === entry;
  });
}
