import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, createLogger } from '@devtrail/config';
import { startEmbedded, type Embedded } from '@devtrail/embedded';
import type { Page } from 'playwright-core';

// The embedded process (receiver, consumers, dashboard in one) on a free port, and small
// helpers to send telemetry to it and to drive the UI's forms.

export async function startDashboard(): Promise<Embedded & { dataDir: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-ui-'));
  const config = loadConfig({ DEVTRAIL_MODE: 'embedded', PORT: '0', DEVTRAIL_DATA_DIR: dataDir, LOG_LEVEL: 'silent', DELETION_GRACE_MS: '1000' });
  const dt = await startEmbedded(config, createLogger(config.logLevel, 'ui-test'));
  return {
    ...dt,
    url: dt.url.replace('0.0.0.0', '127.0.0.1'),
    dataDir,
    async close() {
      await dt.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function ingest(
  base: string,
  key: string,
  kind: 'logs' | 'errors' | 'traces' | 'llm' | 'sessions' | 'scores',
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}/ingest/${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The setup page's form: the setup code the process made at its start, then the owner's credentials. */
export async function fillSetupForm(page: Page, setupCode: string, username: string, password: string): Promise<void> {
  await page.getByLabel('Setup code').fill(setupCode);
  await fillAuthForm(page, username, password, 'Create account');
}

export async function fillAuthForm(page: Page, username: string, password: string, submit: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: submit }).click();
}

/** Creates a project through the UI and returns its id and the key read from the page. */
export async function createProjectInUi(page: Page, name: string): Promise<{ id: string; key: string }> {
  await page.goto('/projects');
  await page.getByLabel('New project').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  const key = (await page.getByTestId('new-api-key').textContent({ timeout: 10_000 }))!.trim();
  const href = await page.getByRole('link', { name: `Open ${name}` }).getAttribute('href');
  const id = /\/projects\/([0-9a-f-]{36})\//.exec(href ?? '')?.[1];
  if (!id) throw new Error(`no project link after creating ${name}`);
  return { id, key };
}
