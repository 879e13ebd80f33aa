import { latestScores, type ScoreFilter } from './latest.ts';

// LLM calls filtered and sorted by a score (docs/api.md, "GET .../llm-calls"): a call has a
// score when the score was given to it (its event_id, or its span in its trace) or to its
// trace. SQL over the llm table's columns, with its parameters.

const TRACE = "JSONExtractString(metadata, 'trace_id')";
const SPAN = "JSONExtractString(metadata, 'span_id')";

/** `score=<name><op><value>`: a number compares the value, anything else the label (true, false, a category). */
export const SCORE_CONDITION = /^([^<>=!]{1,200}?)(>=|<=|!=|=|>|<)(.{1,200})$/;
export interface ScoreCondition {
  name: string;
  op: '>=' | '<=' | '!=' | '=' | '>' | '<';
  value: string;
}

export function parseScoreCondition(text: string): ScoreCondition | null {
  const m = SCORE_CONDITION.exec(text);
  return m ? { name: m[1].trim(), op: m[2] as ScoreCondition['op'], value: m[3].trim() } : null;
}

const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/** Calls with a score of this name whose value meets the condition. */
export function scoreConditionSql(f: Pick<ScoreFilter, 'projectId' | 'retentionDays'>, c: ScoreCondition) {
  const numeric = NUMBER.test(c.value) && Number.isFinite(Number(c.value));
  const test = numeric ? `data_type != 'categorical' AND value ${c.op} {sfvalue:Float64}` : `label ${c.op} {sfvalue:String}`;
  const s = latestScores(f);
  const matching = `(SELECT call_id, trace_id, span_id FROM ${s.sql} WHERE name = {sfname:String} AND ${test})`;
  return {
    where: `(toString(event_id) IN (SELECT call_id FROM ${matching} WHERE call_id != '')
       OR (${TRACE}, ${SPAN}) IN (SELECT trace_id, span_id FROM ${matching} WHERE span_id != '')
       OR ${TRACE} IN (SELECT trace_id FROM ${matching} WHERE span_id = '' AND call_id = '' AND trace_id != ''))`,
    params: { ...s.params, sfname: c.name, sfvalue: numeric ? Number(c.value) : c.value },
  };
}

/**
 * Sorting calls by a score: WITH clauses making `_score_sort`, the mean of the call's scores of
 * this name (its own, else its trace's), and the condition that keeps only calls that have one.
 */
export function scoreSortSql(f: Pick<ScoreFilter, 'projectId' | 'retentionDays'>, name: string) {
  const s = latestScores({ ...f, name }, ["data_type != 'categorical'", "(call_id != '' OR trace_id != '')"]);
  const key = "multiIf(call_id != '', call_id, span_id != '', concat('s:', trace_id, ':', span_id), concat('t:', trace_id))";
  const own = `concat('s:', ${TRACE}, ':', ${SPAN})`;
  return {
    with: `(SELECT CAST((groupArray(k), groupArray(v)), 'Map(String, Float64)') FROM (SELECT ${key} AS k, avg(value) AS v FROM ${s.sql} GROUP BY k LIMIT 100000)) AS _score_map,
  multiIf(mapContains(_score_map, toString(event_id)), _score_map[toString(event_id)], mapContains(_score_map, ${own}), _score_map[${own}], _score_map[concat('t:', ${TRACE})]) AS _score_sort`,
    where: `(mapContains(_score_map, toString(event_id)) OR mapContains(_score_map, ${own}) OR mapContains(_score_map, concat('t:', ${TRACE})))`,
    params: s.params,
  };
}
