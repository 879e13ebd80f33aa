import type { Page } from 'playwright-core';
import { createProjectInUi, fillAuthForm, fillSetupForm, startDashboard } from './dashboard.ts';
import { sendDemoData } from './demo-data.ts';
import { openBrowser, reloadUntilVisible } from './browser.ts';

export const OWNER = { username: 'owner', password: 'correct horse battery' };

/** Creates the owner (with the process's setup code) and a project through the UI, sends the demo data and waits until the logs show it. */
export async function demoProject(page: Page, base: string, setupCode: string, opts: { beforeSetup?: () => Promise<void> } = {}) {
  await page.goto('/');
  await page.waitForURL('**/setup');
  await opts.beforeSetup?.();
  await fillSetupForm(page, setupCode, OWNER.username, OWNER.password);
  await page.waitForURL('**/projects');
  const project = await createProjectInUi(page, 'shop');
  const sentAt = Date.now();
  await sendDemoData(base, project.key, sentAt);
  await page.goto(`/projects/${project.id}/logs`);
  await reloadUntilVisible(page, /180 matching logs/, 60_000);
  return { ...project, sentAt };
}

/** Logs in through the form (a new browser profile has no session). */
export async function logIn(page: Page, next = '/projects'): Promise<void> {
  await page.goto(next);
  await page.waitForURL('**/login**');
  await fillAuthForm(page, OWNER.username, OWNER.password, 'Log in');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** The embedded process, a browser logged in as the owner, and the demo project in it. */
export async function openDemo() {
  const dt = await startDashboard();
  const b = await openBrowser(dt.url);
  const project = await demoProject(b.page, dt.url, dt.setupCode!.code);
  return {
    dt,
    b,
    project,
    async close() {
      await b.close();
      await dt.close();
    },
  };
}
