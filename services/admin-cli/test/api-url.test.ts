import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverHarness, type Harness } from '../../receiver/test/harness.ts';
import { runCli } from '../../../test/support/processes.ts';
import { defaultApiUrl } from '../src/api-url.ts';

// The CLI's admin API address (api-url.ts): the embedded process's port by default, the
// dashboard's with DEVTRAIL_MODE=distributed; and pointed at a receiver (which has no admin API),
// it says what to set instead of a bare 404.

describe('the CLI and the address of the admin API', () => {
  let h: Harness;
  let receiverUrl: string;
  let dashboardStandIn: Server;
  let seen: string[];
  beforeAll(async () => {
    h = await receiverHarness();
    receiverUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
    // Stands in for the dashboard's admin API: answers the project list.
    seen = [];
    dashboardStandIn = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ projects: [] }));
    });
    await new Promise<void>((r) => dashboardStandIn.listen(0, '127.0.0.1', r));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await new Promise((r) => dashboardStandIn?.close(r));
  });

  it('defaults to the embedded port, or to the dashboard port in distributed mode', () => {
    expect(defaultApiUrl({})).toBe('http://127.0.0.1:3000');
    expect(defaultApiUrl({ PORT: '4100' })).toBe('http://127.0.0.1:4100');
    expect(defaultApiUrl({ DEVTRAIL_MODE: 'distributed' })).toBe('http://127.0.0.1:3001');
    expect(defaultApiUrl({ DEVTRAIL_MODE: 'distributed', DASHBOARD_PORT: '4101', PORT: '4100' })).toBe('http://127.0.0.1:4101');
  });

  it('says what to set when the address is a receiver, not a bare 404', { timeout: 60_000 }, async () => {
    const r = await runCli(['project', 'list'], { DEVTRAIL_API_URL: receiverUrl, DEVTRAIL_OPERATOR_TOKEN: 'dto_x' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${receiverUrl} does not serve the admin API (404 Not found: GET /api/admin/projects)`);
    expect(r.stderr).toContain('DEVTRAIL_API_URL');
    expect(r.stderr).toContain('DASHBOARD_PORT, default 3001');
  });

  it("goes to the dashboard's port in distributed mode when no address is given (a stand-in HTTP server answers for the dashboard)", { timeout: 60_000 }, async () => {
    const port = String((dashboardStandIn.address() as AddressInfo).port);
    const env: Record<string, string> = { DEVTRAIL_MODE: 'distributed', DASHBOARD_PORT: port, DEVTRAIL_OPERATOR_TOKEN: 'dto_x', DEVTRAIL_API_URL: '' };
    const r = await runCli(['project', 'list', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toContain('GET /api/admin/projects');
  });
});
