// Debian's Chromium, as the browser suites start it: headless, no sandbox (CI runs as root), and
// none of the background traffic this machine's closed network refuses.
export const CHROMIUM = process.env.DEVTRAIL_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
