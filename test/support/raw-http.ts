import http from 'node:http';

// One HTTP/1.1 request over a real socket with exactly the headers given: node:http adds
// only Host and Connection, never a Content-Type or Content-Length of its own when the
// caller sets the length (or sends no body). For bodies fetch() would not send as-is.

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as-is; Content-Length is set to its length unless `headers` sets it. */
  body?: Buffer | string;
  timeoutMs?: number;
}

export function rawRequest(url: string, req: RawRequest = {}): Promise<RawResponse> {
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const headers: Record<string, string> = { connection: 'close', ...req.headers };
  if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const r = http.request(url, { method: req.method ?? 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    r.setTimeout(req.timeoutMs ?? 30_000, () => r.destroy(new Error(`no answer within ${req.timeoutMs ?? 30_000} ms`)));
    r.on('error', reject);
    r.end(body);
  });
}

/** True when the answer is a client error whose body is a JSON object (the promise for bad input). */
export function isJson4xx(r: RawResponse): boolean {
  const type = String(r.headers['content-type'] ?? '');
  return r.status >= 400 && r.status < 500 && type.includes('application/json') && typeof r.json === 'object' && r.json !== null;
}
