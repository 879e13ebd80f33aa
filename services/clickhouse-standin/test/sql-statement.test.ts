import { describe, expect, it } from 'vitest';
import { scanStatement, setStatementNames } from '../src/sql-statement.ts';

const scan = (sql: string) => scanStatement(Buffer.from(sql));
const insertParts = (sql: string) => {
  const input = Buffer.from(sql);
  const { insert } = scanStatement(input);
  return {
    statement: input.toString('utf8', 0, insert!.statementEnd),
    data: input.toString('utf8', insert!.dataStart),
    kind: insert!.dataKind,
  };
};

describe('scanStatement', () => {
  it('finds the output FORMAT clause, including the one clickhouse-js appends', () => {
    expect(scan('SELECT 1 \nFORMAT JSONEachRow').outputFormat).toBe('JSONEachRow');
    expect(scan('SELECT 1 FORMAT JSON SETTINGS max_threads = 1').outputFormat).toBe('JSON');
    expect(scan('SELECT 1 SETTINGS max_threads = 1 FORMAT CSV;').outputFormat).toBe('CSV');
    expect(scan('SELECT format FROM t').outputFormat).toBeUndefined();
    expect(scan("SELECT 'FORMAT JSON' AS x").outputFormat).toBeUndefined();
    expect(scan('SELECT * FROM format(JSONEachRow, \'{"a":1}\')').outputFormat).toBeUndefined();
    expect(scan('SELECT (SELECT 1 FORMAT JSON)').outputFormat).toBeUndefined();
    expect(scan('SELECT 1 -- FORMAT JSON\n').outputFormat).toBeUndefined();
  });

  it('classifies statements and ignores leading comments', () => {
    expect(scan('/* a /* nested */ comment */ -- x\n  select 1').kind).toBe('SELECT');
    expect(scan('(SELECT 1) UNION ALL (SELECT 2)').kind).toBe('SELECT');
    expect(scan('  \n -- only a comment\n').kind).toBe('');
    expect(scan('CREATE TABLE t (a UInt8) ENGINE = Memory').kind).toBe('CREATE');
    expect(scan('été 1').badStart).toEqual({ position: 1, token: 'été' });
    expect(scan('42').badStart).toEqual({ position: 1, token: '42' });
  });

  it('detects multi-statements but allows a trailing semicolon', () => {
    expect(scan('SELECT 1;').multiStatement).toBe(false);
    expect(scan('SELECT 1; -- done').multiStatement).toBe(false);
    expect(scan("SELECT ';'; ").multiStatement).toBe(false);
    expect(scan('SELECT 1; SELECT 2').multiStatement).toBe(true);
  });

  it('flags INTO OUTFILE', () => {
    expect(scan("SELECT 1 INTO OUTFILE '/tmp/x'").intoOutfile).toBe(true);
    expect(scan("SELECT 'INTO OUTFILE'").intoOutfile).toBe(false);
  });

  it('splits INSERT ... FORMAT from its inline data', () => {
    expect(insertParts('INSERT INTO t FORMAT JSONEachRow\n{"a":"FORMAT x; VALUES"}\n')).toEqual({
      statement: 'INSERT INTO t FORMAT JSONEachRow',
      data: '{"a":"FORMAT x; VALUES"}\n',
      kind: 'format',
    });
    expect(insertParts('INSERT INTO db.`format` (n.a, n.b, `values`) SETTINGS async_insert = 0 FORMAT CSV  \r\n1,2,3')).toEqual({
      statement: 'INSERT INTO db.`format` (n.a, n.b, `values`) SETTINGS async_insert = 0 FORMAT CSV',
      data: '1,2,3',
      kind: 'format',
    });
    expect(insertParts('insert into table values format TSV\n1').statement).toBe('insert into table values format TSV');
    expect(insertParts('INSERT INTO t (* EXCEPT (b)) FORMAT JSONEachRow\n').data).toBe('');
  });

  it('splits INSERT ... VALUES and leaves INSERT ... SELECT whole', () => {
    expect(insertParts("INSERT INTO t VALUES (1, 'a'), (2, 'b')")).toEqual({
      statement: 'INSERT INTO t VALUES',
      data: " (1, 'a'), (2, 'b')",
      kind: 'values',
    });
    expect(insertParts('INSERT INTO t SELECT number FROM numbers(3) FORMAT x')).toMatchObject({ data: '', kind: 'none' });
  });

  it('reads the names a SET statement assigns', () => {
    expect(setStatementNames(Buffer.from("SET a = 1, `b` = 'x,y', c = (1, 2)"))).toEqual(['a', 'b', 'c']);
  });
});
