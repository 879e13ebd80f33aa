import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAsSent, encodeBatch, newEvents, sequentialIds, topicNames } from '@devtrail/contract';
import { createKafkaLog } from '@devtrail/message-log';
import { encodeEnvelope, newEnvelope } from '../../../test/support/envelopes.ts';
import { poisonPrefix } from '../../../test/support/dead-letters.ts';
import { ROOT } from '../../../test/support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';

// The kit as a team outside devtrail gets it, the way its README says: `npm pack` in its folder
// refuses and names the command, which builds and packs the publishable package; the tarball is
// installed into an empty project in a temporary directory (npm's cache holds its dependencies:
// deploy/scripts/consumer-kit.sh), type-checked there, and run there as a consumer of the real
// Kafka: both message versions, an event with a field this kit does not know (the consumer sees
// it), and a message of a newer version, dead-lettered to the group's own topic.
const run = promisify(execFile);
const up = await stackUp();
const dir = mkdtempSync(join(tmpdir(), 'consumer-kit-'));
const sh = (cmd: string, args: string[], cwd = dir, env: Record<string, string> = {}) =>
  run(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 });

let manifest: { dependencies: Record<string, string>; files: string[]; engines: Record<string, string> };
let packed: string[];
let refusal: string;

beforeAll(async () => {
  refusal = await sh('npm', ['pack'], join(ROOT, 'libs/consumer-kit/src')).then(
    () => 'packed',
    (e) => String(e.stderr),
  );
  const { stdout } = await sh('npm', ['run', 'release', '-w', '@devtrail/consumer-kit', '--', '--out', dir], ROOT);
  const tarball = /packed (\S+\.tgz)/.exec(stdout)?.[1];
  if (!tarball) throw new Error(`release printed no tarball:\n${stdout}`);
  packed = (await sh('tar', ['-tzf', tarball])).stdout
    .trim()
    .split('\n')
    .map((f) => f.replace(/^package\//, ''))
    .sort();
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'a-team-service', private: true, type: 'module' }));
  try {
    await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball]);
  } catch (err) {
    throw new Error(`npm install of the packed kit failed (without the network, npm's cache needs deploy/scripts/consumer-kit.sh install): ${(err as Error).message}`);
  }
  manifest = JSON.parse(readFileSync(join(dir, 'node_modules/@devtrail/consumer-kit/package.json'), 'utf8'));
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed @devtrail/consumer-kit', () => {
  it('is not packed from its sources: npm pack there names the command that packs it', () => {
    expect(refusal).toContain('npm run release -w @devtrail/consumer-kit');
  });

  it('holds one bundle, its declarations, a README and its manifest; depends on what it runs only; runs where devtrail runs', () => {
    expect(packed).toEqual(['README.md', 'lib/index.d.ts', 'lib/index.js', 'package.json']);
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['kafkajs', 'zod']);
    expect(manifest.engines).toEqual(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines);
    const code = readFileSync(join(dir, 'node_modules/@devtrail/consumer-kit/lib/index.js'), 'utf8');
    expect(code).not.toMatch(/from ["']@devtrail\//);
    // Public types only: no import at all (the kinds' events are declared from their JSON Schema), nothing of OpenAPI or the tables.
    const types = readFileSync(join(dir, 'node_modules/@devtrail/consumer-kit/lib/index.d.ts'), 'utf8');
    expect(types).not.toMatch(/^import /m);
    expect(types).not.toMatch(/OpenAPI|TableDef|zod-to-openapi/);
  });

  it('type-checks a consumer written against it, and rejects a wrong one', async () => {
    const consumer = `
      import { createEventConsumer, createMemoryLog, Failure, topicNames, type DeletionEvent, type Envelope } from '@devtrail/consumer-kit';
      const c = createEventConsumer({
        kind: 'llm', topics: topicNames('devtrail.'), name: 'n', groupId: 'g', messageLog: createMemoryLog(),
        async write(events: Array<Envelope<'llm'>>) { if (events.some((e) => e.data.cost_usd < 0 || e.raw?.region === 'x')) throw new Failure('negative', false); },
        async onDeletion(d: DeletionEvent) { if (d.kinds?.includes('llm') && d.service !== null) console.log(d.deletion_id); },
        unknownVersion: async (m) => console.log(m.headers['dt-schema-version']),
        sessionTimeoutMs: 6000,
        onDeadLetter: (l) => console.log(l.reason, l.source.offset),
      });
      void c.start();`;
    writeFileSync(join(dir, 'ok.ts'), consumer);
    writeFileSync(join(dir, 'wrong.ts'), consumer.replace('e.data.cost_usd', 'e.data.no_such_field'));
    const tsconfig = (file: string) => ({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        noEmit: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: [file],
    });
    writeFileSync(join(dir, 'tsconfig.ok.json'), JSON.stringify(tsconfig('ok.ts')));
    writeFileSync(join(dir, 'tsconfig.wrong.json'), JSON.stringify(tsconfig('wrong.ts')));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    await sh(process.execPath, [tsc, '-p', 'tsconfig.ok.json']);
    const wrong = await sh(process.execPath, [tsc, '-p', 'tsconfig.wrong.json']).then(
      () => '',
      (e) => String(e.stdout),
    );
    expect(wrong).toContain("Property 'no_such_field' does not exist");
  }, 120_000);

  describe.skipIf(!up)(`against the real Kafka${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
    it('consumes every event of every message version once, and dead-letters what it cannot read', async () => {
      const prefix = `${poisonPrefix('pack', randomBytes(4).toString('hex'))}.`; // dead-letters on purpose
      const topics = topicNames(prefix);
      const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'pack-test' });
      await log.ensureTopics(topics.all(), 3);
      const producer = log.createProducer();
      const now = new Date().toISOString();
      const data = (i: number) => ({
        service: 'shop',
        environment: 'production',
        release: '',
        timestamp: now,
        level: 'info' as const,
        message: `m${i}`,
        metadata: { i },
        trace_id: '',
        span_id: '',
        request_id: '',
        context: '',
      });
      const batches = [3, 1, 5].map((n, b) => encodeBatch('log', 'p1', now, newEvents(Array.from({ length: n }, (_, i) => data(b * 10 + i)))));
      const v1 = encodeEnvelope(newEnvelope('log', 'p1', now, data(99)));
      const poison = { key: null, value: Buffer.from('not json'), headers: {} };
      // A newer receiver: one more field in an event's data, and a whole message of a version this kit does not know.
      const added = encodeBatch('log', 'p1', now, newEvents([{ ...data(7), region: 'eu-west-1' } as ReturnType<typeof data>]));
      const newer = { key: null, value: Buffer.from(JSON.stringify({ schema_version: 99, kind: 'log', project_id: 'p1' })), headers: { 'dt-schema-version': '99' } };
      // A request as sent (version 3): its events from the request, their ids and facts from the headers.
      const ids = sequentialIds(2);
      const asSent = encodeAsSent({
        kind: 'log',
        projectId: 'p1',
        receivedAt: now,
        body: Buffer.from(
          JSON.stringify({
            service: 'shop',
            logs: [
              { level: 'info', message: 'm30' },
              { level: 'info', message: 'm31' },
            ],
          }),
        ),
        ids,
        certificate: 'unchanged rules=none',
        key: ids[0],
      });
      await producer.send([{ topic: topics.of('log'), messages: [...batches, v1, poison, added, newer, asSent] }]);
      await producer.disconnect();

      writeFileSync(
        join(dir, 'consumer.mjs'),
        `import { createEventConsumer, createKafkaLog, topicNames } from '@devtrail/consumer-kit';
        const messageLog = createKafkaLog({ brokers: process.env.BROKERS.split(','), clientId: 'a-team' });
        const seen = new Map();
        const consumer = createEventConsumer({
          kind: 'log', topics: topicNames(process.env.PREFIX), name: 'a-team-counter', groupId: process.env.PREFIX + 'a-team',
          messageLog, batchMs: 200,
          async write(events) { for (const e of events) seen.set(e.event_id, e.raw.region ? e.data.message + '@' + e.raw.region : e.data.message); },
        });
        await consumer.start();
        const deadline = Date.now() + 30_000;
        while ((seen.size < Number(process.env.WANT) || consumer.stats().deadLettered < 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        await consumer.stop();
        await messageLog.close();
        console.log(JSON.stringify({ events: seen.size, messages: [...seen.values()].sort(), stats: consumer.stats() }));`,
      );
      const want = 3 + 1 + 5 + 1 + 1 + 2;
      const { stdout } = await sh(process.execPath, ['consumer.mjs'], dir, { BROKERS: STACK.kafkaBrokers.join(','), PREFIX: prefix, WANT: String(want) });
      const out = JSON.parse(stdout.trim().split('\n').pop()!);
      expect(out.events).toBe(want);
      expect(out.messages).toEqual(['m0', 'm1', 'm10', 'm2', 'm20', 'm21', 'm22', 'm23', 'm24', 'm30', 'm31', 'm7@eu-west-1', 'm99']);
      // At least once: a batch read again on a loaded machine writes (and dead-letters) again;
      // the events a consumer keeps by id are each there once (docs/topics.md).
      expect(out.stats.written).toBeGreaterThanOrEqual(want);
      expect(out.stats.deadLettered).toBeGreaterThanOrEqual(2);

      // The dead letters are on the group's own topic, with their reasons; devtrail's own is untouched.
      const dlq = log.createConsumer({ groupId: `${prefix}peek`, topics: [`${prefix}a-team.dlq`] });
      const letters: Array<Record<string, string>> = [];
      await dlq.run(async (ms) => void letters.push(...ms.map((m) => m.headers)));
      await expect.poll(() => letters.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      await dlq.stop();
      const devtrails = (await log.watermarks(topics.deadLetterOf('log'))).reduce((n, w) => n + Number(w.high), 0);
      await log.close();
      expect([...new Set(letters.map((l) => l['dt-dlq-reason']))].sort()).toEqual([
        'undecodable: message value is not JSON',
        'undecodable: unsupported schema_version 99',
      ]);
      expect(letters[0]['dt-dlq-consumer']).toBe('a-team-counter');
      expect(devtrails).toBe(0);
    }, 120_000);
  });
});
