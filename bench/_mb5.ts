import { decodeLogsRequest } from '@devtrail/otlp';
import { acceptOtlp } from '../services/receiver/src/otlp-accept.ts';
import { otlpLogBatch } from './otlp-payloads.ts';
const pbs = Array.from({ length: 40 }, () => otlpLogBatch(100));
const now = new Date().toISOString();
function t(name: string, f: (i: number) => unknown) {
  for (let i = 0; i < 200; i++) f(i % 40);
  const c0 = process.cpuUsage(); let n = 0; const w = performance.now();
  while (performance.now() - w < 3000) { for (let i = 0; i < 40; i++) f(i); n += 40; }
  const c = process.cpuUsage(c0); console.log(name.padEnd(40), ((c.user + c.system) / n / 100).toFixed(3), 'µs/event');
}
t('protobuf decode', (i) => decodeLogsRequest(pbs[i], 'protobuf'));
const reqs = pbs.map((b) => decodeLogsRequest(b, 'protobuf'));
t('acceptOtlp', (i) => acceptOtlp('logs', reqs[i], now));
import { OTLP_TYPES } from '@devtrail/otlp';
const jsonTexts = pbs.map((b) => {
  const o = OTLP_TYPES.logsRequest.toObject(OTLP_TYPES.logsRequest.decode(b), { longs: String, enums: Number, bytes: String });
  // OTLP/JSON ids are hex
  for (const rl of o.resourceLogs) for (const sl of rl.scopeLogs) for (const r of sl.logRecords) { r.traceId = Buffer.from(r.traceId, 'base64').toString('hex'); r.spanId = Buffer.from(r.spanId, 'base64').toString('hex'); }
  return JSON.stringify(o);
});
console.log('json bytes/record', jsonTexts[0].length / 100);
t('JSON.parse otlp json', (i) => JSON.parse(jsonTexts[i]));
t('JSON.parse + decode json', (i) => decodeLogsRequest(JSON.parse(jsonTexts[i]), 'json'));
const jreqs = jsonTexts.map((b) => decodeLogsRequest(JSON.parse(b), 'json'));
t('acceptOtlp (json-decoded)', (i) => acceptOtlp('logs', jreqs[i], now));
