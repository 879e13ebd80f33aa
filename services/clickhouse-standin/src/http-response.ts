import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type ResponseEncoding = 'gzip' | 'deflate' | 'br';

const compressors: Record<ResponseEncoding, (body: Buffer, level?: number) => Promise<Buffer>> = {
  gzip: (body, level) => promisify(zlib.gzip)(body, { level: clampLevel(level) }),
  deflate: (body, level) => promisify(zlib.deflate)(body, { level: clampLevel(level) }),
  br: (body) => promisify(zlib.brotliCompress)(body, {}),
};

// ClickHouse's http_zlib_compression_level defaults to 3 and is 1..9 for zlib.
function clampLevel(level: number | undefined): number {
  return Math.min(9, Math.max(1, level ?? 3));
}

// The server compresses only when the request both enables it
// (enable_http_compression=1) and names a codec it supports in Accept-Encoding.
export function negotiateEncoding(acceptEncoding: string | undefined, enabled: boolean): ResponseEncoding | undefined {
  if (!enabled || !acceptEncoding) return undefined;
  const accepted = acceptEncoding.toLowerCase();
  return (['br', 'gzip', 'deflate'] as const).find((codec) => accepted.includes(codec));
}

export async function sendResponse(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  encoding?: ResponseEncoding,
  level?: number,
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  const payload = encoding && body.length > 0 ? await compressors[encoding](body, level) : body;
  if (encoding && body.length > 0) headers['Content-Encoding'] = encoding;
  res.writeHead(status, { ...headers, 'Content-Length': String(payload.length) });
  res.end(payload);
}
