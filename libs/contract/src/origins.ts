// Spec 5.5/5.6: an empty list allows every origin; a request without Origin (server to
// server) always passes. Entries are a host ("example.com"), a wildcard host
// ("*.example.com", subdomains only) or a full origin ("https://app.example.com:8443").

export function isValidOriginEntry(entry: string): boolean {
  if (entry.includes('://')) {
    try {
      const u = new URL(entry);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === entry.replace(/\/$/, '').toLowerCase();
    } catch {
      return false;
    }
  }
  return /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(entry) && entry.length <= 253;
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
    const entry = raw.trim().toLowerCase().replace(/\/$/, '');
    if (entry.includes('://')) return url.origin === entry;
    if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
    return host === entry;
  });
}
