// The conventions bundlers and browsers use to tie a minified file to its map
// (docs/source-maps.md): the last "//# sourceMappingURL=" comment of a file, and a debug id
// ("//# debugId=<uuid>" in the file, "debugId" in the map: the same id in both).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function lastComment(text: string, name: string): string | null {
  // Only the file's tail is looked at: the comments are appended by the bundler.
  const tail = text.slice(-4096);
  const re = new RegExp(`//[#@]\\s*${name}=\\s*(\\S+)\\s*$`, 'gm');
  let found: string | null = null;
  for (let m = re.exec(tail); m; m = re.exec(tail)) found = m[1];
  return found;
}

export const sourceMappingUrlOf = (minified: string): string | null => lastComment(minified, 'sourceMappingURL');

export function debugIdOfFile(minified: string): string | null {
  const id = lastComment(minified, 'debugId');
  return id && UUID.test(id) ? id.toLowerCase() : null;
}

export function debugIdOfMap(map: unknown): string | null {
  if (typeof map !== 'object' || map === null) return null;
  const m = map as Record<string, unknown>;
  const id = typeof m.debugId === 'string' ? m.debugId : typeof m.debug_id === 'string' ? m.debug_id : null;
  return id && UUID.test(id) ? id.toLowerCase() : null;
}

export const isUuid = (s: string) => UUID.test(s);
