import { createHash } from 'node:crypto';
import { importMapOf, vendorUrl, type VendorFile } from './vendor-files.ts';

// The one HTML document of the UI. It holds no user data and no inline script except the
// import map, which the Content-Security-Policy admits by its hash.

export interface IndexPage {
  html: string;
  headers: Record<string, string>;
}

export function indexPage(vendor: Map<string, VendorFile>, opts: { connectSrc?: string[] } = {}): IndexPage {
  const importMap = JSON.stringify(importMapOf(vendor));
  const mapHash = createHash('sha256').update(importMap).digest('base64');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>devtrail</title>
<link rel="icon" href="/ui/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${vendorUrl(vendor, 'uplot.css')}">
<link rel="stylesheet" href="/ui/assets/app.css">
<script type="importmap">${importMap}</script>
<script type="module" src="/ui/assets/js/main.js"></script>
</head>
<body>
<div id="app"><noscript>The devtrail dashboard needs JavaScript.</noscript></div>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'sha256-${mapHash}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${opts.connectSrc?.length ? ` ${opts.connectSrc.join(' ')}` : ''}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=()',
      'cache-control': 'no-store',
    },
  };
}
