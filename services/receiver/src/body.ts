import { Transform } from 'node:stream';
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyDigest, IDEMPOTENCY_HEADER } from './idempotency.ts';
import { emptyBody, parseJsonBody, tooLarge, unsupportedEncoding, type DecompressError } from '@devtrail/http';

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 of the body as received, for requests with an Idempotency-Key (their event ids derive from it). */
    bodyDigest?: string;
    /** The JSON body's bytes as read (after any Content-Encoding): what a request forwarded as sent carries (as-sent.ts). */
    rawBody?: Buffer;
  }
}

type Decoder = Gunzip | Inflate;
const DECODERS: Record<string, () => Decoder> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate };

/** The decoded body as Fastify reads it, with the encoded length Fastify's own check reads too. */
type Limited = Transform & { receivedEncodedLength: number };

/**
 * Accepts `Content-Encoding: gzip` (or x-gzip, deflate). The decoded stream replaces the
 * payload and is counted as it comes: past the route's body limit it is 413 and the
 * decoder is destroyed at once, so a gzip bomb costs what was inflated up to the limit,
 * not what it would inflate to. The decoder is also destroyed once the answer is sent
 * (a refusal before the body was read leaves nobody reading it). Every failure of the
 * decoder becomes a 400 answer: its 'error' is always listened to, since Fastify does not
 * read a body it will refuse anyway (an empty gzip body would otherwise end the process
 * with an unhandled 'error').
 */
export function acceptCompressedBodies(app: FastifyInstance): void {
  const decoders = new WeakMap<FastifyRequest, () => void>();
  app.addHook('preParsing', async (request, _reply, payload) => {
    const enc = String(request.headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase();
    if (enc === '' || enc === 'identity') return payload;
    const create = DECODERS[enc];
    if (!create) throw unsupportedEncoding();
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? Number.POSITIVE_INFINITY;
    const decoder = create();
    let decoded = 0;
    const stop = () => {
      payload.unpipe(decoder);
      decoder.destroy();
      payload.resume(); // what is left of the raw body is read and dropped, never inflated
    };
    const limited = new Transform({
      transform(chunk: Buffer, _enc, done) {
        decoded += chunk.length;
        if (decoded <= limit) return done(null, chunk);
        stop();
        done(tooLarge(limit));
      },
    }) as Limited;
    limited.receivedEncodedLength = 0;
    decoder.on('error', (err: DecompressError) => {
      err.encoding = enc; // names the encoding in the 400 (libs/http http-answer.ts)
      limited.destroy(err);
    });
    payload.on('data', (chunk: Buffer) => {
      limited.receivedEncodedLength += chunk.length;
    });
    payload.on('error', (err) => decoder.destroy(err));
    payload.pipe(decoder).pipe(limited);
    decoders.set(request, stop);
    return limited;
  });
  app.addHook('onResponse', async (request) => {
    decoders.get(request)?.();
  });
}

/**
 * JSON bodies, and only JSON, through the contract's parser (lone surrogates normalised,
 * prototype poisoning refused), in place of Fastify's own. The bytes are kept beside the parsed
 * body: a request that may go to Kafka as sent goes with them (as-sent.ts).
 */
export function parseJsonBodies(app: FastifyInstance): void {
  // JSON only (415 otherwise); Fastify would otherwise parse text/plain as a string.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    const text = raw.toString('utf8');
    if (text.trim() === '') return done(emptyBody(), undefined);
    request.rawBody = raw;
    if (request.headers[IDEMPOTENCY_HEADER] !== undefined) request.bodyDigest = bodyDigest(text);
    try {
      done(null, parseJsonBody(text));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
