import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { kafkajsCrc32c, nativeCrc32c } from '../src/kafkajs-crc32c.ts';
import '../src/kafka-log.ts';

// The native CRC-32C that kafkajs uses for record batches (kafkajs-crc32c.ts) is the
// same function as kafkajs's own, and it is the one kafkajs's encoder loaded. (That the
// broker accepts the batches is shown by every suite that produces to real Kafka.)
describe('record batch checksum', () => {
  it("equals kafkajs's JavaScript CRC-32C on many buffers", () => {
    for (const n of [0, 1, 7, 8, 9, 63, 64, 65, 1000, 40_000, 1 << 20]) {
      const b = randomBytes(n);
      expect(nativeCrc32c(b), `${n} bytes`).toBe(kafkajsCrc32c(b));
    }
    expect(nativeCrc32c(Buffer.from('123456789'))).toBe(0xe3069283); // the standard check value
  });

  it("is the function kafkajs's record batch encoder uses", () => {
    const require = createRequire(import.meta.url);
    expect(require('kafkajs/src/protocol/recordBatch/crc32C/index.js')).toBe(nativeCrc32c);
  });
});
