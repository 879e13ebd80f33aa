import { describe, expect, it } from 'vitest';
import { CLICKHOUSE_FLOOR, parseServerVersion, supportedServer } from '../src/server-version.ts';

describe('the ClickHouse floor', () => {
  it('reads version() as major and minor', () => {
    expect(parseServerVersion('24.8.4.1')).toEqual([24, 8]);
    expect(parseServerVersion('26.7.2.1\n')).toEqual([26, 7]);
    expect(parseServerVersion('24.10')).toEqual([24, 10]);
    expect(parseServerVersion('not a version')).toBeNull();
  });

  it('accepts the floor and later, refuses older and unreadable versions', () => {
    expect(CLICKHOUSE_FLOOR.tested.startsWith(`${CLICKHOUSE_FLOOR.major}.${CLICKHOUSE_FLOOR.minor}.`)).toBe(true);
    for (const v of [CLICKHOUSE_FLOOR.tested, '24.8.0.1', '24.9.1.1', '24.10.1.1', '25.1.1.1', '26.7.2.1']) expect(supportedServer(v), v).toBe(true);
    for (const v of ['24.7.9.9', '24.5.1.1', '23.12.1.1', '9.9', '']) expect(supportedServer(v), v).toBe(false);
  });
});
