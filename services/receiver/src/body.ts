import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { bodyDigest, IDEMPOTENCY_HEADER } from './idempotency.ts';
import { emptyBody, parseJsonBody, unsupportedEncoding, type DecompressError } from '@devtrail/http';

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 of the body as received, for requests with an Idempotency-Key (their event ids derive from it). */
    bodyDigest?: string;
  }
}

type Decoder = (Gunzip | Inflate) & { receivedEncodedLength: number };
const DECODERS: Record<string, () => Gunzip | Inflate> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate };

/**
 * Accepts `Content-Encoding: gzip` (or x-gzip, deflate). The decoded stream replaces the
 * payload, so Fastify's body limit counts decompressed bytes: a gzip bomb gets 413, not
 * memory. Every failure of the decoder becomes a 400 answer: its 'error' is always
 * listened to, since Fastify does not read a body it will refuse anyway (an empty
 * gzip body would otherwise end the process with an unhandled 'error').
 */
export function acceptCompressedBodies(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const enc = String(request.headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase();
    if (enc === '' || enc === 'identity') return payload;
    const create = DECODERS[enc];
    if (!create) throw unsupportedEncoding();
    const decoder = create() as Decoder;
    decoder.receivedEncodedLength = 0;
    decoder.on('error', (err: DecompressError) => {
      err.encoding = enc; // names the encoding in the 400 (contract http-answer.ts)
    });
    payload.on('data', (chunk: Buffer) => {
      decoder.receivedEncodedLength += chunk.length;
    });
    payload.on('error', (err) => decoder.destroy(err));
    payload.pipe(decoder);
    return decoder;
  });
}

/**
 * JSON bodies, and only JSON, through the contract's parser (lone surrogates normalised,
 * prototype poisoning refused), in place of Fastify's own.
 */
export function parseJsonBodies(app: FastifyInstance): void {
  // JSON only (415 otherwise); Fastify would otherwise parse text/plain as a string.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(emptyBody(), undefined);
    if (request.headers[IDEMPOTENCY_HEADER] !== undefined) request.bodyDigest = bodyDigest(text);
    try {
      done(null, parseJsonBody(text));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
