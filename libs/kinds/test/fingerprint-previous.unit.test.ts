import { describe, expect, it } from 'vitest';
import { previousFingerprint as fingerprint, previousFingerprintParts as fingerprintParts } from '../src/error/grouping/fingerprint-previous.ts';
import { cpuMs } from '../../../test/support/cpu-time.ts';

// The previous grouping rule, frozen (docs/fingerprint.md#upgrading): the receiver still
// computes it so that events join the groups it made. Its output must never change.

const stack = (path: string, line: number, fn2 = 'handleRequest') =>
  `TypeError: Cannot read properties of undefined (reading 'id')\n` +
  `    at getUser (${path}/src/users.js:${line}:13)\n` +
  `    at ${fn2} (${path}/src/server.js:88:5)\n` +
  `    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;

const base = { error_message: "Cannot read properties of undefined (reading 'id')", stack_trace: stack('/srv/app', 42) };

describe('error fingerprint', () => {
  it('is 64 lowercase hex and stable for identical content', () => {
    expect(fingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint({ ...base })).toBe(fingerprint(base));
  });

  it('groups the same error across line numbers', () => {
    expect(fingerprint({ ...base, stack_trace: stack('/srv/app', 97) })).toBe(fingerprint(base));
  });

  it('groups the same error across ids and numbers in the message', () => {
    const a = { error_message: 'User 1234 not found (request 9f3c2a1b-1111-4222-8333-444455556666)', stack_trace: stack('/srv/app', 1) };
    const b = { error_message: 'User 98 not found (request 0a1b2c3d-aaaa-4bbb-8ccc-ddddeeeeffff)', stack_trace: stack('/srv/app', 1) };
    expect(fingerprint(a)).toBe(fingerprint(b));
  });

  it('groups the same error across absolute install paths', () => {
    expect(fingerprint({ ...base, stack_trace: stack('/home/alice/projects/app', 42) })).toBe(fingerprint(base));
    expect(fingerprint({ ...base, stack_trace: stack('C:\\builds\\app', 42) })).toBe(fingerprint(base));
  });

  it('separates a different error type', () => {
    const other = { ...base, stack_trace: base.stack_trace.replace(/^TypeError/, 'RangeError') };
    expect(fingerprintParts(other).errorType).toBe('RangeError');
    expect(fingerprint(other)).not.toBe(fingerprint(base));
  });

  it('separates a different call path', () => {
    expect(fingerprint({ ...base, stack_trace: stack('/srv/app', 42, 'handleWebhook') })).not.toBe(fingerprint(base));
  });

  it('separates different message texts', () => {
    expect(fingerprint({ ...base, error_message: 'Connection refused' })).not.toBe(fingerprint(base));
  });

  it('reads Gecko and Python frames', () => {
    const gecko = fingerprintParts({ error_message: 'x', stack_trace: 'render@https://cdn.example.com/assets/app.3f9a.js:10:20\n@debugger eval code:1:1' });
    expect(gecko.frames[0]).toBe('render@assets/app.3f9a.js');
    const py = fingerprintParts({
      error_message: 'x',
      stack_trace: 'Traceback (most recent call last):\n  File "/usr/lib/app/views.py", line 12, in index\nValueError: x',
    });
    expect(py.frames[0]).toBe('index@app/views.py');
  });
});

describe('error fingerprint on hostile and unusual input', () => {
  it('reads the type of a long identifier-like message in linear time (no ReDoS)', () => {
    const ms = cpuMs(() => {
      for (const n of [30, 1000, 100_000]) fingerprint({ error_message: 'a'.repeat(n), stack_trace: '9'.repeat(n) });
      fingerprint({ error_message: 'aB1'.repeat(50_000) + '!', stack_trace: 'x.'.repeat(50_000) });
    });
    // Exponential backtracking took seconds at 27 characters; this is a correctness guard in CPU time, not a benchmark.
    expect(ms).toBeLessThan(2000);
  });

  it('does not read an email in a message line as a browser frame', () => {
    const parts = fingerprintParts({
      error_message: 'User jane@example.com not found',
      stack_trace: 'Error: User jane@example.com not found\n    at find (/srv/app/users.js:3:9)',
    });
    expect(parts.frames).toEqual(['find@app/users.js']);
    expect(parts.message).toBe('User <email> not found');
    expect(
      fingerprint({ error_message: 'User bob@example.org not found', stack_trace: 'Error: User bob@example.org not found\n    at find (/srv/app/users.js:3:9)' }),
    ).toBe(fingerprint({ error_message: 'User jane@example.com not found', stack_trace: 'Error: User jane@example.com not found\n    at find (/srv/app/users.js:3:9)' }));
  });

  it('reads Python tracebacks innermost frame first, with the type from the last line', () => {
    const tb = (view: string) =>
      `Traceback (most recent call last):\n  File "/usr/lib/python3/site-packages/flask/app.py", line 1, in wsgi_app\n  File "/srv/app/views.py", line 12, in ${view}\n  File "/srv/app/db.py", line 40, in load\nKeyError: 'id'`;
    const parts = fingerprintParts({ error_message: "'id'", stack_trace: tb('index') });
    expect(parts.errorType).toBe('KeyError');
    expect(parts.frames[0]).toBe('load@app/db.py');
    expect(fingerprint({ error_message: "'id'", stack_trace: tb('other') })).not.toBe(fingerprint({ error_message: "'id'", stack_trace: tb('index') }));
  });
});

describe('the previous rule is frozen', () => {
  it('gives the fingerprint it always gave to the sample of docs/api.md', () => {
    expect(
      fingerprint({
        error_message: "Cannot read properties of undefined (reading 'id')",
        stack_trace: "TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser (/app/src/users.ts:42:13)",
      }),
    ).toBe('b0ab1afc3feaa85dad207cc553361310a5554606ae0ecde4edf441dd5eb87367');
  });
});
