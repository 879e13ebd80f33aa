import { describe, expect, inject, it } from 'vitest';
import { deadLetterWatermarks, isPoisonTopic } from '../support/dead-letters.ts';
import { NO_STACK_REASON, STACK_REQUIRED } from '../support/stack.ts';

// The consumers' dead-letter counters stay at 0 across the whole run, except in
// suites that send poison on purpose (their topics carry POISON_MARK). Runs last
// (support/final-checks-last.ts) and compares every dead-letter topic on the real Kafka
// with the watermarks taken before the first suite (support/global-setup.ts). Every
// suite that runs the real pipeline uses its own topic prefix, so a dead letter here
// names the suite that caused it. (Embedded-mode suites check their in-process
// counters themselves: that log does not outlive the process.)
const baseline = inject('dlqBaseline');
if (!baseline && STACK_REQUIRED) throw new Error(`DEVTRAIL_REQUIRE_STACK=1 but Kafka was not reachable when the run started`);

describe.skipIf(!baseline)(`dead letters of the whole run${baseline ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  it('dead-lettered nothing outside the suites that send poison on purpose', async () => {
    const now = await deadLetterWatermarks();
    const added = Object.fromEntries(Object.entries(now).map(([t, n]) => [t, n - (baseline![t] ?? 0)]));
    const unexpected = Object.fromEntries(Object.entries(added).filter(([t, n]) => n > 0 && !isPoisonTopic(t)));
    const onPurpose = Object.entries(added).filter(([t, n]) => n > 0 && isPoisonTopic(t));
    console.log(`dead-letter topics examined: ${Object.keys(now).length}; poison sent on purpose: ${onPurpose.map(([t, n]) => `${t}=${n}`).join(', ') || 'none'}`);
    // A broker with no dead-letter topic at all means nothing ran that this check covers.
    expect(Object.keys(now).length, 'no dead-letter topic on the broker: this check runs last in `make test`, after the suites that create them').toBeGreaterThan(0);
    expect(unexpected, 'dead letters written during this run (topic -> messages); the topic prefix names the suite').toEqual({});
  });
});
