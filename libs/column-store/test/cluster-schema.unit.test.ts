import { describe, expect, it } from 'vitest';
import { clusteredTableStatements, localTable, replicatedEngine, shardingKey } from '../src/cluster-schema.ts';

// The cluster schema's pieces (docs/deployment.md#a-clickhouse-cluster); test/clickhouse-schema.test.ts
// parses the whole schema with ClickHouse's parser.
describe('cluster schema', () => {
  it('replicates any MergeTree engine, keeping its own arguments after the Keeper path and replica', () => {
    const path = "'/clickhouse/tables/{shard}/{database}/{table}', '{replica}'";
    expect(replicatedEngine('ReplacingMergeTree')).toBe(`ReplicatedReplacingMergeTree(${path})`);
    expect(replicatedEngine('ReplacingMergeTree(version)')).toBe(`ReplicatedReplacingMergeTree(${path}, version)`);
    expect(replicatedEngine(' AggregatingMergeTree() ')).toBe(`ReplicatedAggregatingMergeTree(${path})`);
    expect(replicatedEngine('MergeTree')).toBe(`ReplicatedMergeTree(${path})`);
    expect(() => replicatedEngine('Log')).toThrow(/MergeTree/);
  });

  it('shards by a hash of the whole sorting key, so rows merged by it share a shard', () => {
    expect(shardingKey('(project_id, timestamp, event_id)')).toBe('cityHash64(project_id, timestamp, event_id)');
    expect(shardingKey('id')).toBe('cityHash64(id)');
  });

  it('puts a Distributed table of the same columns, without indexes, in front of the local table', () => {
    const [local, front] = clusteredTableStatements(
      { name: 't', columns: [{ name: 'a', sql: 'UInt8' }], indexes: ['i a TYPE set(8) GRANULARITY 4'], engine: 'MergeTree', orderBy: 'a', ttl: 'x' },
      { cluster: 'c-1', database: 'd' },
    );
    expect(localTable('t')).toBe('t_local');
    expect(local).toMatch(
      /^CREATE TABLE IF NOT EXISTS d\.t_local ON CLUSTER `c-1` \(\n {2}a UInt8,\n {2}INDEX i a TYPE set\(8\) GRANULARITY 4\n\) ENGINE = ReplicatedMergeTree\(/,
    );
    expect(local).toMatch(/\nORDER BY a\nTTL x$/);
    expect(front).toBe("CREATE TABLE IF NOT EXISTS d.t ON CLUSTER `c-1` (\n  a UInt8\n) ENGINE = Distributed('c-1', 'd', 't_local', cityHash64(a))");
  });
});
