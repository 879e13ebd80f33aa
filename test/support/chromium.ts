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

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium server (browser-server.ts); null when there is no Chromium on this machine. */
    chromiumWs: string | null;
  }
}
