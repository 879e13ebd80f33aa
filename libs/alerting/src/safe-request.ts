import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from './private-addresses.ts';

// One POST to a URL a user gave us, bounded in every way a stranger could abuse:
// - the address: every address the name resolves to is checked, and the connection goes to
//   the checked address (no second lookup a DNS rebinding could answer differently);
//   private/loopback/link-local/reserved addresses are refused unless allowed
// - no redirects followed (a 3xx is an answer, not a new target)
// - the whole exchange within `timeoutMs`; at most `maxResponseBytes` of the answer read.

export interface SendLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  allowPrivateAddresses: boolean;
}

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** 'ok' (2xx), 'http_error', 'timeout', 'network', 'refused' (policy), 'invalid_url'. */
  outcome: 'ok' | 'http_error' | 'timeout' | 'network' | 'refused' | 'invalid_url';
  error: string | null;
  /** The first bytes of the answer (for the attempt's record). */
  responseSnippet: string;
}

export class RefusedAddressError extends Error {}

/**
 * What a refused send says: refused, and nothing of what the name resolved to. A member reads it
 * (a rule's test, its notifications): the addresses of names on the private network are not
 * theirs to learn (docs/alerts.md, "Webhook targets and SSRF").
 */
export const refusedDestination = (host: string) => `refused: ${host} is not a public address (ALERT_WEBHOOK_PRIVATE_ADDRESSES=deny)`;

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      // Without the resolver's words: only that the name has no address here.
      if (err) return callback(allowPrivate ? err : Object.assign(new Error(`${hostname} has no address`), { code: err.code }), '', 0);
      const bad = addresses.some((a) => isPrivateAddress(a.address));
      if (!allowPrivate && bad) return callback(new RefusedAddressError(refusedDestination(hostname)), '', 0);
      if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Checks a URL's form (http/https, a host, no credentials): what rule validation refuses at once. */
export function webhookUrlProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be http or https';
  if (!u.hostname) return 'must have a host';
  if (u.username || u.password) return 'must not carry credentials';
  return null;
}

export async function postJson(rawUrl: string, body: string, headers: Record<string, string>, limits: SendLimits): Promise<SendResult> {
  const started = Date.now();
  const done = (r: Omit<SendResult, 'latencyMs'>): SendResult => ({ ...r, latencyMs: Date.now() - started });
  const problem = webhookUrlProblem(rawUrl);
  if (problem) return done({ statusCode: null, outcome: 'invalid_url', error: `invalid URL: ${problem}`, responseSnippet: '' });
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address literal is never looked up, so it is checked here.
  if (isIP(host) && !limits.allowPrivateAddresses && isPrivateAddress(host)) {
    return done({ statusCode: null, outcome: 'refused', error: refusedDestination(host), responseSnippet: '' });
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'devtrail-alerts/1', ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(limits.allowPrivateAddresses),
        agent: false,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = res.statusCode ?? 0;
        const settle = () => {
          const snippet = Buffer.concat(chunks).toString('utf8').slice(0, 500);
          const ok = status >= 200 && status < 300;
          finish({ statusCode: status, outcome: ok ? 'ok' : 'http_error', error: ok ? null : `HTTP ${status}`, responseSnippet: snippet });
          res.destroy();
        };
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= limits.maxResponseBytes) chunks.push(c);
          else settle(); // enough: the rest of an oversized answer is not read
        });
        res.on('end', settle);
        res.on('error', settle);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ statusCode: null, outcome: 'timeout', error: `no answer within ${limits.timeoutMs} ms`, responseSnippet: '' });
    }, limits.timeoutMs);
    req.on('error', (err) => {
      const refused = err instanceof RefusedAddressError;
      finish({ statusCode: null, outcome: refused ? 'refused' : 'network', error: err.message.slice(0, 500), responseSnippet: '' });
    });
    req.end(body);
  });
}
