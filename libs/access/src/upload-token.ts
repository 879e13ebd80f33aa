import { randomBytes } from 'node:crypto';

// Project upload tokens (docs/source-maps.md, docs/security.md): the secret a build pipeline
// uploads source maps with. Unlike the API key (public: it ships in browsers) it never leaves
// the pipeline. "dtu_" + 40 lowercase hex (20 random bytes); stored only as its SHA-256 hash
// (hashApiKey) and a display prefix.
export const UPLOAD_TOKEN_PATTERN = /^dtu_[0-9a-f]{40}$/;
export const UPLOAD_TOKEN_DISPLAY_LENGTH = 8; // "dtu_" + 4 hex

export function generateUploadToken(): string {
  return `dtu_${randomBytes(20).toString('hex')}`;
}

export const uploadTokenDisplayPrefix = (token: string) => token.slice(0, UPLOAD_TOKEN_DISPLAY_LENGTH);
