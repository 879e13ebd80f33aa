// Where a map applies (docs/source-maps.md, "File URLs"): a minified file's URL without
// scheme, host, query and fragment, written "~/path". A map uploaded for
// "https://app.example.com/_next/static/chunks/main-1a2b.js" (or "~/_next/static/...")
// serves frames from any host that serves that path: production, a preview, localhost.

export const MAX_URL_KEY_LENGTH = 2000;

export function urlKey(url: string): string {
  let path = url.trim();
  if (path.startsWith('~/')) path = path.slice(1);
  else if (/^[a-z][\w+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      path = path.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '');
    }
  }
  path = path.replace(/[?#].*$/, '');
  if (!path.startsWith('/')) path = `/${path}`;
  return `~${path}`.slice(0, MAX_URL_KEY_LENGTH);
}
