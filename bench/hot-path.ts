import { createRequire } from 'node:module';
import '../libs/message-log/src/kafkajs-crc32c.ts'; // as the receiver runs kafkajs: native record batch checksums
import { batchKey, decodeMessage, encodeAsSent, encodeBatch, newEvents, type EncodedMessage, type Envelope } from '@devtrail/contract';
import { fastLogsToEvents, KINDS, logBatchSchema, logsToEvents } from '@devtrail/kinds';
import { logBatch } from './payloads.ts';
import { compileScrubber, scrubbingSchema, scrubEvents } from '@devtrail/data-policy';
import { bytesAsSent } from '../services/receiver/src/as-sent.ts';

// `npx tsx bench/hot-path.ts [--batch 100] [--otlp]`: CPU microseconds per log event for each
// stage an event passes through, measured in this process with process.cpuUsage (so a
// busy machine slows it less than wall-clock figures). kafkajs's record encoding and
// decoding are reached through its internal modules, for measurement only.

const require = createRequire(import.meta.url);
const Decoder = require('kafkajs/src/protocol/decoder');
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0');
const Record = require('kafkajs/src/protocol/recordBatch/record/v0');
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder');
const secureJson = require('secure-json-parse');

const batchArg = process.argv.indexOf('--batch');
const BATCH = batchArg > 0 ? Number(process.argv[batchArg + 1]) : 100;
const BODIES = 40;

async function stage<T>(name: string, inputs: T[], fn: (x: T) => unknown | Promise<unknown>, eventsPerInput: number): Promise<number> {
  for (let r = 0; r < 3; r++) for (const x of inputs) await fn(x); // warm-up
  let rounds = 0;
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  while (performance.now() - w0 < 1500) {
    for (const x of inputs) await fn(x);
    rounds++;
  }
  const cpu = process.cpuUsage(t0);
  const us = (cpu.user + cpu.system) / (rounds * inputs.length * eventsPerInput);
  console.log(`  ${name.padEnd(44)} ${us.toFixed(2).padStart(7)} µs/event`);
  return us;
}

const bodies = Array.from({ length: BODIES }, () => logBatch(BATCH));
const parsed = bodies.map((b) => JSON.parse(b));
const valid = parsed.map((p) => logBatchSchema.parse(p));
const now = new Date().toISOString();
const events = valid.map((v) => logsToEvents(v, now));
// One message per request (envelope schema version 2), as the receiver writes them.
const encoded = events.map((es) => [encodeBatch('log', '3f1c9a52-7f0e-4d4e-9a59-4f0f6b1e2c11', now, newEvents(es))]);
const recordsOf = (msgs: EncodedMessage[]) => msgs.map((m, i) => Record({ key: m.key, value: m.value, headers: m.headers, offsetDelta: i, timestampDelta: 0 }));
const batches: Buffer[] = [];
for (const msgs of encoded) batches.push((await RecordBatch({ records: recordsOf(msgs), lastOffsetDelta: msgs.length - 1 })).buffer);
const decoded = encoded.map((msgs) => msgs.flatMap((m) => decodeMessage('log', m.value).events));
const toRow = (e: Envelope) => KINDS.log.toRow(e as Envelope<'log'>, 30);
const rows = decoded.map((d) => d.map(toRow));
const toCells = (e: Envelope) => KINDS.log.toCells(e as Envelope<'log'>, 30);
const cells = decoded.map((d) => d.map(toCells));
// The same requests as the receiver writes them when nothing changes them (message version 3).
const raw = bodies.map((b) => Buffer.from(b));
const asSent = (i: number) => {
  const batch = newEvents(events[i]);
  const bytes = bytesAsSent({ rawBody: raw[i] } as never, 'log', parsed[i]);
  return encodeAsSent({
    kind: 'log',
    projectId: 'p',
    receivedAt: now,
    body: bytes!,
    ids: batch.map((e) => e.event_id),
    certificate: 'unchanged rules=none',
    key: batchKey('log', batch),
  });
};
const asSentMessages = bodies.map((_, i) => asSent(i));

console.log(`receiver, ${BATCH} logs a request (${Math.round(bodies[0].length / BATCH)} bytes a log in the body)`);
// Scrubbing at the door with the default rules, as every project has it unless turned off (docs/data.md).
const scrubber = compileScrubber(scrubbingSchema.parse({}), 'salt')!;
const r = [
  await stage('JSON parse (secure-json-parse, as Fastify)', bodies, (b) => secureJson.parse(b, { protoAction: 'error', constructorAction: 'error' }), BATCH),
  await stage('validate + normalise (fastLogsToEvents)', parsed, (p) => fastLogsToEvents(p, now), BATCH),
  await stage('scrub, default rules (scrubEvents)', events, (es) => scrubEvents('log', es, scrubber), BATCH),
  await stage('event ids + encode (newEvents, encodeBatch)', events, (es) => encodeBatch('log', 'p', now, newEvents(es)), BATCH),
  await stage(
    'or as sent: checks, ids, encodeAsSent (version 3)',
    bodies.map((_, i) => i),
    (i) => asSent(i),
    BATCH,
  ),
  await stage(
    'kafkajs record batch encode (+crc32c)',
    encoded,
    async (msgs) => (await RecordBatch({ records: recordsOf(msgs), lastOffsetDelta: msgs.length - 1 })).buffer,
    BATCH,
  ),
  await stage(
    'or of a version-3 message (its 8 headers)',
    asSentMessages,
    async (m) => (await RecordBatch({ records: recordsOf([m]), lastOffsetDelta: 0 })).buffer,
    BATCH,
  ),
];
console.log(
  `  ${'receiver total (version 2, or 3 in place of 2)'.padEnd(44)} ${(r[0] + r[1] + r[2] + r[3] + r[5]).toFixed(2).padStart(7)} ${(r[0] + r[1] + r[2] + r[4] + r[6])
    .toFixed(2)
    .padStart(7)} µs/event\n`,
);

if (process.argv.includes('--otlp')) {
  // The same lines as OTLP/HTTP protobuf (npm run bench -- --otlp): the stages before the envelope.
  const { otlpLogBatch } = await import('./otlp-payloads.ts');
  const { decodeLogsRequest } = await import('@devtrail/otlp');
  const { acceptOtlp } = await import('../services/receiver/src/otlp-accept.ts');
  const pbs = Array.from({ length: BODIES }, () => otlpLogBatch(BATCH));
  const requests = pbs.map((b) => decodeLogsRequest(b, 'protobuf'));
  console.log(`receiver, OTLP/HTTP protobuf, ${BATCH} records a request (${Math.round(pbs[0].length / BATCH)} bytes a record in the body)`);
  const o = [
    await stage('protobuf decode (protobufjs, OTLP .proto)', pbs, (b) => decodeLogsRequest(b, 'protobuf'), BATCH),
    await stage('map, validate, normalise (acceptOtlp: fast path)', requests, (q) => acceptOtlp('logs', q, now), BATCH),
  ];
  console.log(
    `  ${'OTLP before the envelope'.padEnd(44)} ${o
      .reduce((a, b) => a + b, 0)
      .toFixed(2)
      .padStart(7)} µs/event (JSON: ${(r[0] + r[1]).toFixed(2)})\n`,
  );
}

console.log('consumer');
const c = [
  await stage('kafkajs record batch decode', batches, (b) => decodeRecordBatch(new Decoder(b)), BATCH),
  await stage('decodeMessage, version 2 (JSON + validation)', encoded, (msgs) => msgs.map((m) => decodeMessage('log', m)), BATCH),
  await stage('decodeMessage, version 3 (JSON + fast path)', asSentMessages, (m) => decodeMessage('log', m), BATCH),
  await stage('toCells', decoded, (d: Envelope[]) => d.map(toCells), BATCH),
  await stage('JSONCompactEachRow body (JSON.stringify per row)', cells, (rs) => rs.map((x) => JSON.stringify(x)).join('\n'), BATCH),
];
console.log(
  `  ${'consumer total, version 2 or 3 (before the insert)'.padEnd(44)} ${(c[0] + c[1] + c[3] + c[4]).toFixed(2).padStart(7)} ${(c[0] + c[2] + c[3] + c[4])
    .toFixed(2)
    .padStart(7)} µs/event`,
);
if (process.argv.includes('--detail')) {
  console.log('\ndetail');
  await stage('zod logBatchSchema.safeParse (the fallback)', parsed, (p) => logBatchSchema.safeParse(p), BATCH);
  await stage('logsToEvents after zod', valid, (v) => logsToEvents(v, now), BATCH);
  await stage('toRow (row objects, before cells)', decoded, (d: Envelope[]) => d.map(toRow), BATCH);
  await stage('JSONEachRow body of those rows', rows, (rs) => rs.map((x) => JSON.stringify(x)).join('\n'), BATCH);
  await stage(
    'kafkajs encode, no headers',
    encoded,
    async (msgs) =>
      (await RecordBatch({ records: msgs.map((m, i) => Record({ key: m.key, value: m.value, offsetDelta: i, timestampDelta: 0 })), lastOffsetDelta: msgs.length - 1 }))
        .buffer,
    BATCH,
  );
  await stage('kafkajs Record() objects only', encoded, (msgs) => recordsOf(msgs), BATCH);
}
if (process.argv.includes('--detail')) {
  const { Partitioners } = await import('kafkajs');
  const { javaCompatiblePartitioner } = await import('../libs/message-log/src/kafka-partitioner.ts');
  const partitionMetadata = [0, 1, 2].map((partitionId) => ({ partitionId, leader: 1, replicas: [1], isr: [1], partitionErrorCode: 0, offlineReplicas: [] }));
  for (const [name, make] of [
    ['kafkajs DefaultPartitioner', Partitioners.DefaultPartitioner],
    ['javaCompatiblePartitioner', javaCompatiblePartitioner],
  ] as const) {
    const p = make();
    await stage(`partition by event id: ${name}`, encoded, (msgs) => msgs.map((m) => p({ topic: 't', partitionMetadata, message: m })), BATCH);
  }
}
