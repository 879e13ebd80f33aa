import { describe, expect, it } from 'vitest';
import type { HttpError } from '@devtrail/http';
import { EXPORT_BUSY, EXPORTS_BUSY, exportSlots } from '../src/api/export-slots.ts';

// Exports in flight (docs/api.md, "GET /api/projects/:id/logs/export"): one a project, a few a process.

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err as HttpError;
  }
  throw new Error('not refused');
};

describe('export slots', () => {
  it('takes one export a project at a time (429 for the next), freed when it ends', () => {
    const slots = exportSlots({ perProject: 1, perProcess: 4 });
    const release = slots.take('a');
    const busy = refusal(() => slots.take('a'));
    expect(busy.status).toBe(429);
    expect(busy.body.error).toBe(EXPORT_BUSY);
    expect(busy.headers['retry-after']).toBe('5');
    slots.take('b')();
    release();
    release(); // once only
    slots.take('a')();
  });

  it('takes at most the process bound in all (503 past it), whoever asks', () => {
    const slots = exportSlots({ perProject: 1, perProcess: 2 });
    const releases = [slots.take('a'), slots.take('b')];
    const busy = refusal(() => slots.take('c'));
    expect(busy.status).toBe(503);
    expect(busy.body.error).toBe(EXPORTS_BUSY);
    releases[0]();
    releases[0]();
    slots.take('c');
    expect(refusal(() => slots.take('d')).status).toBe(503);
  });
});
