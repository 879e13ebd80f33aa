import { createRequire } from 'node:module';
import { crc32c } from '@node-rs/crc32';

// kafkajs checksums every record batch it produces with CRC-32C written in JavaScript, a
// byte at a time: about 300 µs for a 40 KB batch of 100 logs, most of what producing
// one costs (bench/hot-path.ts). @node-rs/crc32 computes the same checksum natively
// about 15 times faster. kafkajs takes its checksum function from this module when it
// loads, and offers no option for it, so this puts the native one in that module's place
// in the require cache; it must be imported before kafkajs (kafka-log.ts imports it
// first). The broker verifies every batch's checksum (a wrong one is refused), and
// test/kafkajs-crc32c.test.ts holds the two functions equal.

const require = createRequire(import.meta.url);
const path = require.resolve('kafkajs/src/protocol/recordBatch/crc32C/index.js');
const native = (buffer: Buffer) => crc32c(buffer) >>> 0;
require.cache[path] = { id: path, filename: path, loaded: true, exports: native } as unknown as NodeJS.Module;

/** kafkajs's own JavaScript implementation, for the test that holds the two equal. */
export const kafkajsCrc32c: (buffer: Buffer) => number = require('kafkajs/src/protocol/recordBatch/crc32C/crc32C.js');
export { native as nativeCrc32c };
