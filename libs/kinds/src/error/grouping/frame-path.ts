// A frame's file as grouping sees it (docs/fingerprint.md, "Frames"): nothing that differs
// between machines, installs or deploys: no scheme or host, no query, no line or column, only
// the last two path segments, and a bundler's content hash masked in a JavaScript asset's name.

const JS_ASSET = /\.(?:m|c)?js$/;
// After any leading words ("page-", "index-"), what a bundler puts in a name: a run of 8 or
// more letters, digits, "_" or "-" with a digit ("page-8a7b6c5d4e3f2a1b", Turbopack's
// "3khe5efsnx6jq", "938-…" chunk ids); Vite's 8-character base64url hash after a name, digits
// or not ("index-DiwrgTda"); webpack's short hex between dots ("app.3f9c2.js").
const LEAD = /^((?:[a-z]+-)*)(.*)$/;
const VITE = /^[A-Za-z0-9_-]{8}$/;

function maskPart(part: string): string {
  const [, lead, rest] = LEAD.exec(part)!;
  if (rest.length >= 8 && /^[\w-]+$/.test(rest) && /\d/.test(rest)) return `${lead}<hash>`;
  if (lead && VITE.test(rest) && /[A-Z]/.test(rest) && /[a-z]/.test(rest)) return `${lead}<hash>`;
  if (!lead && /^[0-9a-f]{5,}$/.test(rest) && /\d/.test(rest) && /[a-f]/.test(rest)) return '<hash>';
  if (/^\d+$/.test(part)) return '<n>';
  return part;
}

/** Masks content hashes in the kept segments of a JavaScript asset's path. */
function maskAssetHashes(segments: string[]): string[] {
  if (!JS_ASSET.test(segments[segments.length - 1] ?? '')) return segments;
  return segments.map((s) => s.split('.').map(maskPart).join('.'));
}

/** The path without what varies between installs; `keep` last segments (2 unless a platform says otherwise). */
export function framePath(path: string, keep = 2): string {
  let p = path
    .trim()
    .replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '')
    .replace(/[?#].*$/, '')
    .replace(/\\/g, '/');
  p = p.replace(/:\d+(:\d+)?$/, '');
  const parts = p.split('/').filter(Boolean);
  return maskAssetHashes(parts.slice(-keep)).join('/');
}

/** A minified JavaScript asset: a masked hash or ".min." in its name, or a bundler's chunk folder. */
export function isBundle(normalisedPath: string): boolean {
  return JS_ASSET.test(normalisedPath) && (normalisedPath.includes('<hash>') || normalisedPath.includes('.min.') || /(?:^|\/)chunks\//.test(normalisedPath));
}
