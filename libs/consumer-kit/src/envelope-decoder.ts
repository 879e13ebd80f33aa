import { decodeEnvelope, type Envelope, type EventKind } from '@devtrail/contract';
import type { ConsumedMessage } from '@devtrail/message-log';

/** The typed, versioned decoder for devtrail's own topics (schema_version checked). */
export function envelopeDecoder<K extends EventKind>(kind: K): (m: ConsumedMessage) => Envelope<K> {
  return (m) => decodeEnvelope(kind, m.value);
}
