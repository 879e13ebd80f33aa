import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, badSignature, checkJsonShape, emptyBody, HttpError, parseJsonBody } from '@devtrail/http';
import { DRAIN_KIND, DRAIN_PATH, drainBodySchema, drainEntryToEvent, MAX_DRAIN_ENTRIES, NDJSON_TYPES } from '@devtrail/kinds';
import { boundedSafeParse } from './bounded-parse.ts';
import { bodyDigest } from './idempotency.ts';
import { produce, received, type IngestDeps } from './accept.ts';
import { validDrainSignature } from './drain-signature.ts';

// A Vercel log drain: a JSON array or NDJSON, an optional HMAC-SHA1 signature over the raw
// body; each entry becomes one of its kind's events (libs/kinds/src/log/drain.ts). Steps
// 1-4 and 9 are the ingest scope's (ingest-routes.ts); it parses its own body (5').

/** The first `max` non-blank lines. */
function ndjsonLines(text: string, max: number): string[] {
  const lines: string[] = [];
  for (let from = 0; from <= text.length && lines.length < max; ) {
    const nl = text.indexOf('\n', from);
    const line = text.slice(from, nl === -1 ? text.length : nl);
    if (line.trim() !== '') lines.push(line);
    if (nl === -1) break;
    from = nl + 1;
  }
  return lines;
}

/** 5' for the drain: a JSON array or NDJSON, through the same JSON parser. */
function parseDrainBody(request: FastifyRequest, raw: Buffer): unknown {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  const text = raw.toString('utf8');
  if (text.trim() === '') throw emptyBody();
  try {
    if (NDJSON_TYPES.some((t) => type.startsWith(t))) {
      // Past the entry limit, one line more than it is read: the schema refuses the body (bounded-parse.ts).
      checkJsonShape(text);
      return ndjsonLines(text, MAX_DRAIN_ENTRIES + 1).map((l) => parseJsonBody(l, true));
    }
    return parseJsonBody(text);
  } catch (err) {
    if (err instanceof HttpError) throw err; // past the JSON limits: 413
    throw badRequest(`Malformed drain body: ${(err as Error).message}`, 'JSON array or NDJSON', 'malformed');
  }
}

export function registerDrainRoute(app: FastifyInstance, deps: IngestDeps): void {
  app.register(async (scope) => {
    // The signature covers the raw bytes, so this route keeps the body unparsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(['application/json', ...NDJSON_TYPES, 'text/plain'], { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(DRAIN_PATH, async (request, reply) => {
      // No body at all (no Content-Type, or Content-Length: 0) leaves request.body unset.
      const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
      const grant = request.grant!;
      if (grant.drainSecret && !validDrainSignature(raw, grant.drainSecret, request.headers['x-vercel-signature'] as string | undefined)) throw badSignature();
      const at = await received(deps, request, reply);
      if (at.idempotencyKey) request.bodyDigest = bodyDigest(raw);
      const parsed = boundedSafeParse(drainBodySchema, parseDrainBody(request, raw));
      if (!parsed.success) throw parsed.error;
      const events = parsed.data.map(drainEntryToEvent);
      if (events.length > 0) await produce(deps, DRAIN_KIND, request, at, events);
      return { ok: true, count: events.length };
    });
  });
}
