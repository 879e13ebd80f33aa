import { describe, expect, it } from 'vitest';
import { kindOf } from '@devtrail/kinds';
import { added, label } from '../src/fields.ts';
import { defineKind, type KindSpec } from '../src/kind.ts';

// A field added to a kind after events were written (fields.ts, `added`): the messages
// already in Kafka lack it, and both decoders (zod and the zod-free check) read them with the
// field's absent value, so the envelope stays compatible with what the topics hold.

const log = kindOf('log');
const withHost = defineKind({ ...(log as unknown as KindSpec<typeof log.fields, unknown>), fields: { ...log.fields, host: added(label, '') } });
const before = {
  service: 's',
  environment: 'production',
  release: '',
  timestamp: '2026-11-27T00:00:00.000Z',
  level: 'info',
  message: 'm',
  metadata: {},
  trace_id: '',
  span_id: '',
  request_id: '',
  context: '',
};

describe('a field added to a kind', () => {
  it('reads an event written before it with its absent value, through zod and the zod-free check alike', () => {
    const parsed = withHost.event.parse(before);
    expect(parsed).toEqual({ ...before, host: '' });
    expect(JSON.stringify(withHost.fastEvent(before))).toBe(JSON.stringify(parsed));
  });

  it('keeps the value of an event that has it, and refuses a value of the wrong type in both', () => {
    expect(withHost.event.parse({ ...before, host: 'web-1' }).host).toBe('web-1');
    expect(withHost.fastEvent({ ...before, host: 'web-1' })?.host).toBe('web-1');
    expect(withHost.event.safeParse({ ...before, host: 5 }).success).toBe(false);
    expect(withHost.fastEvent({ ...before, host: 5 })).toBeUndefined();
  });

  it('writes the absent value to its column, which rows written before it read as their DEFAULT', () => {
    const row = withHost.toRow(
      { project_id: 'p', event_id: '00000000-0000-4000-8000-000000000000', received_at: before.timestamp, data: withHost.event.parse(before) },
      30,
    );
    expect(row.host).toBe('');
    expect(withHost.tableDef.columns.at(-1)).toEqual({ name: 'host', sql: "LowCardinality(String) DEFAULT ''" });
  });
});
