// An in-memory fetch for transport tests that run under fake timers, where a
// real socket would not line up with the mocked clock.
import { vi } from 'vitest';

export interface FetchCall {
  url: string;
  path: string;
  init: RequestInit;
  headers: Record<string, string>;
  body: any;
}

export type Responder = (call: FetchCall, index: number) => Response | Error | Promise<Response | Error>;

export function fakeFetch(responder: Responder = () => ok()) {
  const calls: FetchCall[] = [];
  const fetch = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    const call: FetchCall = {
      url,
      path: new URL(url).pathname,
      init,
      headers: init.headers as Record<string, string>,
      body: JSON.parse(String(init.body)),
    };
    calls.push(call);
    const result = await responder(call, calls.length - 1);
    if (result instanceof Error) throw result;
    return result;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

export const ok = (): Response => new Response(JSON.stringify({ ok: true }), { status: 200 });
export const status = (code: number, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ error: `status ${code}` }), { status: code, headers });
