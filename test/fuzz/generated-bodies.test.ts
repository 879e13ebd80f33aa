import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, type IngestTarget, type TargetMode } from '../support/ingest-targets.ts';
import { isJson4xx, rawRequest, type RawResponse } from '../support/raw-http.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';
import { fuzzBody, markAndSerialise, type FuzzBody } from './generate/bodies.ts';
import { expectedRecords, storedView, type Expectation, type Table } from './expect/expected-records.ts';
import { features } from './expect/features.ts';
import { difference } from './expect/normalise.ts';
import { storedRows, traceSpans } from './expect/stored-records.ts';
import { messageSchemaCheck } from '../support/message-schema-check.ts';
import { FUZZ, writeFindings } from './fuzz-settings.ts';

// Generated inputs, one invariant. A few hundred seeded bodies over the whole
// schema domain of every ingest kind go to the real pipeline and to the embedded process:
//   - every answer is 200, or a 4xx with a JSON body; never a 5xx, never no answer;
//   - every body answered 200 reads back through the read API as sent (normalise.ts lists
//     the only differences allowed);
//   - no consumer dead-letters anything.
// Every finding is collected (not only the first) and written to
// .devtrail/test-results/fuzz-<mode>.json with the exact body text.
const up = await stackUp();

interface Sent {
  index: number;
  marker: string;
  body: FuzzBody;
  text: string;
  /** The body as the receiver's JSON.parse reads it. */
  parsed: any;
  answer?: RawResponse;
  error?: string;
  expectations: Expectation[];
}

interface Finding {
  index: number;
  kind: string;
  /** The edge classes in the body (features.ts): what the finding is an instance of. */
  classes: string[];
  problem: string;
  contentType: string;
  /** The exact body sent (cut past 4 KB: FUZZ_SEED/FUZZ_ONLY replay it whole). */
  body: string;
}

/** Of several stored rows with the same marker (entries of one batch), the one most like the expected record. */
function closest(e: Expectation, rows: any[]): any {
  const score = (r: any) => Object.entries(storedView(e, r)).filter(([k, v]) => difference(e.expected[k], v) === null).length;
  return rows.reduce((best, r) => (score(r) > score(best) ? r : best));
}

const modes: TargetMode[] = ['distributed', 'embedded'];
const samples = fc.sample(fuzzBody, { seed: FUZZ.seed, numRuns: FUZZ.runs });
const replay = (i: number) => `FUZZ_SEED=${FUZZ.seed} FUZZ_ONLY=${i}`;

describe.skipIf(!up).each(modes)(`generated bodies, one invariant (%s; seed ${FUZZ.seed})${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, (mode) => {
  let t: IngestTarget;
  const sent: Sent[] = [];
  const findings: Finding[] = [];
  const finding = (s: Sent, problem: string) =>
    findings.push({
      index: s.index,
      kind: s.body.kind,
      classes: features(s.parsed),
      problem: `${problem} [replay: ${replay(s.index)}]`,
      contentType: s.body.contentType,
      body: s.text.length > 4096 ? `${s.text.slice(0, 4096)}… (${s.text.length} chars)` : s.text,
    });
  const report = (problemStart: string) => {
    const mine = findings.filter((f) => f.problem.startsWith(problemStart));
    return mine.map((f) => `#${f.index} ${f.kind}: ${f.problem}\n    ${f.contentType} ${f.body.slice(0, 400)}`).join('\n');
  };

  beforeAll(async () => {
    t = await TARGETS[mode]();
  }, 180_000);
  afterAll(async () => {
    if (findings.length > 0) {
      const byClass: Record<string, number[]> = {};
      for (const f of findings)
        for (const c of f.classes.length ? f.classes : ['(none of the listed classes)']) (byClass[c] ??= []).includes(f.index) || byClass[c].push(f.index);
      const file = writeFindings(`fuzz-${mode}`, { seed: FUZZ.seed, byClass, findings });
      console.log(
        `${findings.length} findings (${mode}) in ${file}; bodies by class:\n${Object.entries(byClass)
          .map(([c, ix]) => `  ${c}: #${ix.join(' #')}`)
          .join('\n')}`,
      );
    }
    await t?.close();
  });

  it('answers every body 200 or 4xx JSON, never 5xx or no answer', { timeout: 600_000 }, async () => {
    for (const [index, body] of samples.entries()) {
      if (FUZZ.only !== undefined && index !== FUZZ.only) continue;
      const marker = `fz-${index}-${mode}`;
      const text = markAndSerialise(body, marker);
      const parsed =
        body.contentType === 'application/x-ndjson'
          ? text
              .split('\n')
              .filter((l) => l.trim() !== '')
              .map((l) => JSON.parse(l))
          : JSON.parse(text);
      const s: Sent = { index, marker, body, text, parsed, expectations: [] };
      sent.push(s);
      try {
        s.answer = await rawRequest(`${t.ingestUrl()}${body.path}`, {
          headers: { authorization: `Bearer ${t.project.key}`, 'content-type': body.contentType },
          body: s.text,
          timeoutMs: 30_000,
        });
      } catch (err) {
        s.error = (err as Error).message;
      }
      if (!t.ingestAlive()) {
        finding(s, `answer: the ingest process died: ${t.describeIngestDeath().slice(0, 600)}`);
        await t.restartIngest();
        continue;
      }
      const a = s.answer;
      if (!a) finding(s, `answer: none (${s.error})`);
      else if (a.status === 200) {
        s.expectations = expectedRecords(body.kind, parsed, marker);
        const count = (a.json as { count?: number } | undefined)?.count;
        if ((a.json as { ok?: boolean } | undefined)?.ok !== true) finding(s, `answer: 200 without {ok:true}: ${a.text.slice(0, 200)}`);
        else if (count !== undefined && count !== s.expectations.length) finding(s, `answer: 200 with count ${count} for ${s.expectations.length} events`);
      } else if (!isJson4xx(a)) finding(s, `answer: ${a.status} ${String(a.headers['content-type'])} ${a.text.slice(0, 300)}`);
    }
    const accepted = sent.filter((s) => s.answer?.status === 200).length;
    console.log(
      `${mode}: ${sent.length} bodies, ${accepted} answered 200, ${sent.filter((s) => s.answer && s.answer.status >= 400 && s.answer.status < 500).length} answered 4xx`,
    );
    // The generator must exercise storage and refusal both, or the invariant says little.
    if (FUZZ.only === undefined) {
      expect(accepted).toBeGreaterThan(sent.length * 0.2);
      expect(accepted).toBeLessThan(sent.length);
    }
    expect(report('answer:'), 'bodies whose answer was not 200 or a 4xx JSON body').toBe('');
  });

  it('makes every body answered 200 readable through the read API, as sent', { timeout: 300_000 }, async () => {
    const pending = sent.flatMap((s) => s.expectations.map((e) => ({ s, e })));
    const tables = new Set<Table>(pending.map((p) => p.e.table));
    const deadline = Date.now() + FUZZ.visibilityMs;
    let unmatched = pending;
    const reason = new Map<Expectation, string>();
    let readError = '';
    while (unmatched.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      let rows: Record<Table, any[]>;
      try {
        rows = await storedRows(t, tables);
        readError = '';
      } catch (err) {
        readError = (err as Error).message;
        continue;
      }
      const used = new Set<any>();
      unmatched = [];
      for (const p of pending) {
        const candidates = rows[p.e.table].filter((r) => p.e.matches(r) && !used.has(r));
        const exact = candidates.find((r) => difference(p.e.expected, storedView(p.e, r)) === null);
        if (exact) used.add(exact);
        else {
          unmatched.push(p);
          reason.set(p.e, candidates.length ? `stored differently: ${difference(p.e.expected, storedView(p.e, closest(p.e, candidates)))}` : 'not readable');
        }
      }
      // Stored rows do not change: once nothing is missing any more, waiting longer tells nothing new.
      if (unmatched.every((p) => reason.get(p.e) !== 'not readable')) break;
    }
    for (const p of unmatched) finding(p.s, `read-back: ${reason.get(p.e) ?? 'not readable'} (table ${p.e.table}, waited up to ${FUZZ.visibilityMs / 1000} s)`);
    if (readError) findings.push({ index: -1, kind: '-', classes: [], problem: `read-back: the read API failed: ${readError}`, contentType: '-', body: '' });

    // A trace is opened by its id: each accepted span must be there too.
    for (const s of sent.filter((x) => x.body.kind === 'span' && x.expectations.length > 0)) {
      const traceId = s.expectations[0].expected.trace_id as string;
      const r = await traceSpans(t, traceId);
      if (!('spans' in r))
        finding(s, `read-back: GET /traces/:traceId answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)} (trace id of ${traceId.length} chars)`);
      else if (!r.spans.some((sp) => s.expectations[0].matches(sp))) finding(s, 'read-back: span missing from GET /traces/:traceId');
    }
    expect(report('read-back:'), 'bodies answered 200 that do not read back as sent').toBe('');
  });

  // What an outside consumer validates with (docs/schemas/): every message the receiver wrote for these bodies.
  it.skipIf(mode === 'embedded')(
    `writes only Kafka messages that the published JSON Schema accepts${mode === 'embedded' ? ' (skipped: the embedded log is inside its process)' : ''}`,
    { timeout: 120_000 },
    async () => {
      const check = messageSchemaCheck();
      const messages = await t.producedMessages!();
      const refused = messages.flatMap((m) => {
        const why = check(m.value, m.headers);
        return why ? [`${m.topic} ${m.partition}/${m.offset}: ${why}: ${String(m.value).slice(0, 300)}`] : [];
      });
      const events = messages.reduce((n, m) => n + Number(m.headers['dt-event-count'] ?? 1), 0);
      console.log(`${mode}: ${messages.length} Kafka messages (${events} events) checked against docs/schemas`);
      expect(events).toBeGreaterThanOrEqual(sent.reduce((n, s) => n + s.expectations.length, 0));
      expect(refused, 'messages the JSON Schema refuses').toEqual([]);
    },
  );

  it('dead-letters nothing', { timeout: 60_000 }, async () => {
    const dead = await t.deadLettered();
    expect(Object.keys(dead).length).toBeGreaterThan(0);
    expect(dead, 'a consumer dead-lettered an acknowledged event (an accepted value the store cannot hold)').toEqual(
      Object.fromEntries(Object.keys(dead).map((k) => [k, 0])),
    );
  });
});
