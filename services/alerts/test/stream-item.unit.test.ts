import { describe, expect, it } from 'vitest';
import { encodeBatch, newEvents } from '@devtrail/contract';
import { KINDS } from '@devtrail/kinds';
import { alertsDecoder } from '../src/stream-item.ts';
import type { RuleCache } from '../src/rule-cache.ts';

// What the alerts consumer takes from an error message: PostgreSQL cannot hold U+0000, which the
// receiver accepts (ClickHouse stores it), so the strings it keeps or sends carry U+FFFD instead;
// an event with one was dead-lettered by the alerts group before.
describe('alerts decoder', () => {
  it('replaces U+0000 in the strings of an error event, and leaves a clean event as it is', () => {
    const body = KINDS.error.request.parse({ error_message: 'boom\u0000', stack_trace: 'Error: boom', release: 'r\u00001', environment: 'prod' });
    const now = new Date().toISOString();
    const events = [...KINDS.error.toEvents(body, now), ...KINDS.error.toEvents(KINDS.error.request.parse({ error_message: 'clean', stack_trace: '' }), now)];
    const m = encodeBatch('error', 'p1', now, newEvents(events));
    const decode = alertsDecoder('error', {} as RuleCache, { warn: () => {} });
    const { items } = decode({ topic: 't', partition: 0, offset: '7', key: m.key, value: m.value, headers: m.headers, timestamp: Date.now() });
    expect(items).toHaveLength(2);
    const [dirty, clean] = items.map((i) => i.event!.data as Record<string, unknown>);
    expect(dirty.release).toBe('r\uFFFD1');
    expect(dirty.error_message).toBe('boom\uFFFD');
    expect(dirty.environment).toBe('prod');
    expect(JSON.stringify(items.map((i) => i.event))).not.toContain('\\u0000');
    expect(clean).toBe(items[1].event!.data);
    expect(clean.error_message).toBe('clean');
  });
});
