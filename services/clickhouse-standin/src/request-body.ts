import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { clickhouseException } from './clickhouse-exception.ts';

// Request bodies may be compressed per Content-Encoding (clickhouse-js does so
// with `compression.request`); zstd only where this Node has it.
function decompressorFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case '':
    case 'identity':
    case 'none':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd': {
      const create = (zlib as unknown as { createZstdDecompress?: () => Transform }).createZstdDecompress;
      if (create) return create();
    }
  }
  throw clickhouseException(
    'NOT_IMPLEMENTED',
    `Unknown compression method '${encoding}'. Only 'gzip', 'deflate', 'br' and 'zstd' (Node >= 22.15) are supported by the stand-in`,
  );
}

// Reads the whole (decompressed) body into one Buffer. `prefix` is placed in front
// of it in the same copy: the `query` URL parameter the server reads first.
export async function readRequestBody(req: IncomingMessage, prefix?: Buffer): Promise<Buffer> {
  const encoding = String(req.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decompressor = decompressorFor(encoding);
  const source = decompressor ? req.pipe(decompressor) : req;
  // Tells a body that fails to decompress apart from a client that went away.
  let inflateError: Error | undefined;
  let clientError = false;
  if (decompressor) {
    req.on('error', (error) => {
      clientError = true;
      decompressor.destroy(error);
    });
    decompressor.once('error', (error) => (inflateError ??= error));
  }
  const chunks: Buffer[] = prefix ? [prefix] : [];
  try {
    for await (const chunk of source) chunks.push(chunk as Buffer);
  } catch (error) {
    if (inflateError && error === inflateError && !clientError) {
      throw clickhouseException('ZLIB_INFLATE_FAILED', `inflate failed: ${inflateError.message}`);
    }
    throw error;
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
