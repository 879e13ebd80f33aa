import http from 'node:http';

// An autocannon-like loop: N workers on one keep-alive agent, each sending its next
// request as soon as the previous one answered (or, with a target rate, when its
// scheduled slot comes). Latency is measured from the write of the request to the
// end of the answer.

export interface Outcome {
  status: number;
  ms: number;
  body: string;
  /** The answer's bytes (a protobuf answer is not text). */
  bytes: Buffer;
  /** performance.now() when the answer arrived. */
  at: number;
}

export class Client {
  readonly agent: http.Agent;
  private readonly url: URL;

  constructor(
    baseUrl: string,
    private readonly key: string,
    maxSockets: number,
  ) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  post(path: string, body: string | Buffer, contentType = 'application/json', headers: Record<string, string> = {}): Promise<Outcome> {
    return new Promise((resolve) => {
      const t0 = performance.now();
      const req = http.request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method: 'POST',
          path,
          headers: { authorization: `Bearer ${this.key}`, 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const at = performance.now();
            const bytes = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, ms: at - t0, body: bytes.toString('utf8'), bytes, at });
          });
          res.on('error', () => resolve({ status: 0, ms: performance.now() - t0, body: '', bytes: Buffer.alloc(0), at: performance.now() }));
        },
      );
      req.on('error', (err) => resolve({ status: 0, ms: performance.now() - t0, body: err.message, bytes: Buffer.alloc(0), at: performance.now() }));
      req.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

export interface LoopOptions {
  concurrency: number;
  /** Requests per second over all workers; 0 = unthrottled. */
  rate: number;
  durationMs: number;
  /** Sends request number `seq` and returns when it has been answered and recorded. */
  send(seq: number): Promise<void>;
}

/** Runs the workers until the duration is over; resolves when the last request answered. */
export async function runLoop(o: LoopOptions): Promise<{ sent: number; elapsedMs: number }> {
  const t0 = performance.now();
  const end = t0 + o.durationMs;
  let seq = 0;
  const interval = o.rate > 0 ? 1000 / o.rate : 0;
  const worker = async () => {
    for (;;) {
      const my = seq++;
      if (interval > 0) {
        const slot = t0 + my * interval;
        if (slot >= end) return;
        const wait = slot - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      } else if (performance.now() >= end) {
        return;
      }
      await o.send(my);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return { sent: seq - o.concurrency, elapsedMs: performance.now() - t0 };
}
