import type { ServiceProcess } from './processes.ts';

/** A call of the dashboard's admin API with the operator token; status and parsed body. */
export async function adminCall(dashboard: ServiceProcess, token: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${dashboard.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as any) : null };
}

/** Creates a project through the admin API: its id and raw key. */
export async function newProject(dashboard: ServiceProcess, token: string, name: string): Promise<{ id: string; key: string }> {
  const r = await adminCall(dashboard, token, 'POST', '/api/admin/projects', { name });
  if (r.status !== 201) throw new Error(`project not created: ${r.status} ${JSON.stringify(r.body)}`);
  return { id: r.body.project.id, key: r.body.api_key };
}

/** Waits, when needed, until a fresh minute leaves at least `seconds` in it (a test of per-minute windows must not straddle one). */
export async function roomInMinute(seconds: number): Promise<void> {
  const left = 60 - (Date.now() % 60_000) / 1000;
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}
