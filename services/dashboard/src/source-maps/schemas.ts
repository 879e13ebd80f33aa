import { z } from 'zod';
import { MAX_URL_KEY_LENGTH } from '@devtrail/source-maps';
import { nameText, pgText } from '@devtrail/http';

// Request schemas of the source maps and upload tokens (maps.ts, upload-tokens.ts).

// As an event's release is stored: exactly as sent, so a map and the events of its release match.
const release = pgText().min(1).max(200);
// One pattern, so the OpenAPI document carries all of it (no NUL, as pgText, and the start).
const fileUrl = z
  .string()
  .min(1)
  .max(MAX_URL_KEY_LENGTH)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what the pattern refuses (as pgText)
  .regex(/^(~\/|\/|https?:\/\/)[^\u0000]*$/, 'a URL (https://host/path), a path (/path) or a host-less path (~/path)');

export const sourceMapUpload = z
  .object({
    release,
    url: fileUrl,
    source_map: z.union([pgText(), z.record(z.unknown())]),
    debug_id: z.string().uuid().optional(),
  })
  .strict();

/** The upload's fields besides the map, as the route checks them (the source-map worker checks the map). */
export const sourceMapFields = sourceMapUpload.omit({ source_map: true });

export const sourceMapList = z.object({ release: release.optional() });
export const sourceMapDelete = z.object({ release, url: fileUrl.optional() });

export const uploadTokenBody = z.object({ name: nameText(100) }).strict();
export const uploadTokenParam = z.object({ tokenId: z.string().uuid() });
