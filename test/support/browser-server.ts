import { existsSync } from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

// One headless Chromium for the whole run (the in-process lane's global setup, vitest.config.ts):
// the browser suites connect to it and open a fresh context per session (openBrowser), instead
// of each session starting a browser of its own (docs/testing.md).

let server: BrowserServer | undefined;

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) return project.provide('chromiumWs', null);
  server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumWs', server.wsEndpoint());
  return async () => {
    await server?.close();
  };
}
