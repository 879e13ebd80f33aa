// Reads a header from the shapes frameworks hand us: a Fetch `Headers`
// object (Hono, Next.js) or Node's lower-cased record (Express, Fastify).

export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | number | undefined>;

export function getHeader(headers: HeaderSource | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | number | undefined>;
  const value = record[name.toLowerCase()] ?? record[name];
  if (Array.isArray(value)) return value[0];
  return value === undefined ? undefined : String(value);
}

/** Path without query string or fragment. */
export function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return path || '/';
}
