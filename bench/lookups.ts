import type { ClickHouseClient } from '@clickhouse/client';
import type { Lookup, Probe } from './visibility.ts';

// Two ways to ask "which probe markers are stored now?".

/**
 * Distributed mode: one query per poll straight to ClickHouse (no FINAL: visibility is
 * about the row being there). The logs part is narrowed by timestamp, the table's sort
 * key after project, so a poll reads only the last seconds of a large table.
 */
export function clickhouseLookup(ch: ClickHouseClient, database: string, projectId: string): Lookup {
  return async (pending) => {
    const parts: string[] = [];
    const params: Record<string, unknown> = { p: projectId };
    if (pending.log.length) {
      parts.push(
        `SELECT DISTINCT message AS m FROM ${database}.logs WHERE project_id = {p:String} AND timestamp >= fromUnixTimestamp64Milli({lt:Int64}) AND message IN {l:Array(String)}`,
      );
      params.lt = Math.min(...pending.log.map((p) => p.ackWall)) - 60_000;
      params.l = pending.log.map((p) => p.marker);
    }
    if (pending.error.length) {
      parts.push(`SELECT DISTINCT error_message AS m FROM ${database}.errors WHERE project_id = {p:String} AND error_message IN {e:Array(String)}`);
      params.e = pending.error.map((p) => p.marker);
    }
    if (pending.span.length) {
      parts.push(`SELECT DISTINCT span_id AS m FROM ${database}.spans WHERE project_id = {p:String} AND span_id IN {s:Array(String)}`);
      params.s = pending.span.map((p) => p.marker);
    }
    if (pending.llm.length) {
      parts.push(`SELECT DISTINCT toString(service) AS m FROM ${database}.llm WHERE project_id = {p:String} AND service IN {q:Array(String)}`);
      params.q = pending.llm.map((p) => p.marker);
    }
    if (parts.length === 0) return new Set();
    const r = await ch.query({ query: parts.join('\nUNION ALL\n'), query_params: params, format: 'JSONEachRow' });
    const rows = await r.json<{ m: string }>();
    return new Set(rows.map((x) => x.m));
  };
}

/**
 * Through the read API (embedded mode: its column store lives inside the process).
 * Logs by text search on the run's marker prefix; errors, spans and LLM usage by
 * listing what arrived since the oldest pending probe.
 */
export function readApiLookup(baseUrl: string, token: string, projectId: string, runTag: string): Lookup {
  const get = async (path: string) => {
    const r = await fetch(`${baseUrl}/api/projects/${projectId}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${(await r.text()).slice(0, 200)}`);
    return (await r.json()) as any;
  };
  const since = (ps: Probe[]) => Math.min(...ps.map((p) => p.ackWall)) - 60_000;
  return async (pending) => {
    const seen = new Set<string>();
    const jobs: Promise<void>[] = [];
    if (pending.log.length) {
      jobs.push(
        (async () => {
          let cursor = '';
          for (let page = 0; page < 10; page++) {
            const b = await get(`/logs?q=${encodeURIComponent(runTag)}&from=${since(pending.log)}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
            for (const l of b.logs) seen.add(l.message);
            if (!b.next_cursor && !b.nextCursor) break;
            cursor = b.next_cursor ?? b.nextCursor;
          }
        })(),
      );
    }
    if (pending.error.length) jobs.push(get(`/errors?from=${since(pending.error)}&limit=1000`).then((b) => b.errors.forEach((e: any) => seen.add(e.error_message))));
    if (pending.span.length) jobs.push(get(`/spans?from=${since(pending.span)}&limit=1000`).then((b) => b.spans.forEach((s: any) => seen.add(s.span_id))));
    if (pending.llm.length) jobs.push(get(`/llm-usage?from=${since(pending.llm)}`).then((b) => b.usage.forEach((u: any) => seen.add(u.service))));
    await Promise.all(jobs);
    return seen;
  };
}
