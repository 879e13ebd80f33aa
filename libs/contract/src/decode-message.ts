import type { EventKind } from '@devtrail/kinds';
import { decodeAsSent, AS_SENT_VERSION } from './as-sent.ts';
import { UnsupportedVersion } from './decode-error.ts';
import { decodeJsonEnvelope, HEADERS, NEWEST_VERSION, type DecodedMessage, type DecodeOptions } from './envelope.ts';

// Every message version this build reads, from one call (docs/topics.md, "Messages"): the
// `dt-schema-version` header says which; versions 1 and 2 also say it in their JSON value.

/** A message as read from Kafka: its value, and its headers (version 3 keeps its facts there). */
export interface MessageIn {
  value: Buffer | string | null;
  headers?: Record<string, string>;
}

/**
 * Decodes a message of the expected kind, of any version this build knows. A message that
 * cannot be read as a whole (not an envelope, another kind, a version newer than this build
 * knows: UnsupportedVersion) throws DecodeError; each event that cannot be read is `rejected`
 * on its own and the others are returned. A bare value (no headers) is read as version 1 or 2.
 */
export function decodeMessage<K extends EventKind>(kind: K, message: MessageIn | Buffer | string | null, opts: DecodeOptions = {}): DecodedMessage<K> {
  const m: MessageIn = message === null || typeof message === 'string' || Buffer.isBuffer(message) ? { value: message } : message;
  const header = m.headers?.[HEADERS.schemaVersion];
  if (header !== undefined) {
    const version = Number(header);
    if (version === AS_SENT_VERSION) return decodeAsSent(kind, m.value, m.headers!, opts);
    if (Number.isInteger(version) && version > NEWEST_VERSION) throw new UnsupportedVersion(version);
  }
  return decodeJsonEnvelope(kind, m.value, opts);
}
