import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-errors.ts';

/**
 * Accepts `Content-Encoding: gzip`. The gunzipped stream replaces the payload, so
 * Fastify's body limit counts decompressed bytes: a gzip bomb gets 413, not memory.
 */
export function acceptGzip(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const enc = String(request.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (enc === '' || enc === 'identity') return payload;
    if (enc !== 'gzip' && enc !== 'x-gzip') throw new HttpError(415, { error: 'Unsupported Content-Encoding: send gzip or an uncompressed body' });
    const gunzip = createGunzip() as ReturnType<typeof createGunzip> & { receivedEncodedLength: number };
    gunzip.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      gunzip.receivedEncodedLength += chunk.length;
    });
    payload.on('error', (err) => gunzip.destroy(err));
    payload.pipe(gunzip);
    return gunzip;
  });
}
