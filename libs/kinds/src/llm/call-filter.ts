import { withinRetention, type TimeRange } from '@devtrail/column-store';
import { searchSql } from '../search/sql.ts';
import type { SearchNode } from '../search/syntax.ts';
import type { PriceOf } from './cost.ts';
import { llm } from './index.ts';
import { LLM_SEARCH } from './search.ts';
import { scoreConditionSql, type ScoreCondition } from '../score/call-scores.ts';

// Which LLM calls a read takes (the explorer's filters, docs/api.md): the project, range and
// retention; model, service; a metadata value and a search (search.ts); one session's calls.

/** A top-level metadata key's value as text: a string as it is, another scalar as its JSON ('' when absent). */
export const scalar = (key: string) => `if(JSONType(metadata, '${key}') = 'String', JSONExtractString(metadata, '${key}'), JSONExtractRaw(metadata, '${key}'))`;
/** The session a call belongs to: its metadata session.id, else its gen_ai.conversation.id. */
export const SESSION_SQL = `if(${scalar('session.id')} != '', ${scalar('session.id')}, ${scalar('gen_ai.conversation.id')})`;

export interface LlmCallFilter {
  projectId: string;
  /** The project's retention of the kind: older rows are never returned (docs/data.md). */
  retentionDays: number;
  /** The deployment's price table (cost.ts); absent: nothing is estimated. */
  prices?: PriceOf;
  range?: Partial<TimeRange>;
  model?: string;
  service?: string;
  /** Calls whose metadata has this key with this value (a string, number, boolean or null as text). */
  metadata?: { key: string; value: string };
  /** A parsed search over the conversation and metadata (search.ts). */
  search?: SearchNode | null;
  /** Calls of this session (SESSION_SQL). */
  session?: string;
  /** Calls with a score meeting this (score/call-scores.ts). */
  score?: ScoreCondition;
  /** The project's retention of scores (docs/data.md); absent: retentionDays. */
  scoreRetentionDays?: number;
}

/** The WHERE conditions and their parameters. */
export function llmWhere(f: LlmCallFilter, range: TimeRange) {
  const params: Record<string, unknown> = { project: f.projectId, from: range.fromMs, to: range.toMs, retention: f.retentionDays };
  const where = [
    'project_id = {project:String}',
    'timestamp >= fromUnixTimestamp64Milli({from:Int64})',
    'timestamp <= fromUnixTimestamp64Milli({to:Int64})',
    withinRetention(llm.tableDef.ttlColumn),
  ];
  if (f.model) {
    where.push('model = {model:String}');
    params.model = f.model;
  }
  if (f.service) {
    where.push('service = {service:String}');
    params.service = f.service;
  }
  if (f.metadata) {
    const s = searchSql({ type: 'field', field: 'metadata', key: f.metadata.key, op: '=', value: f.metadata.value, wildcard: false }, LLM_SEARCH);
    where.push(s.where);
    Object.assign(params, s.params);
  }
  if (f.search) {
    const s = searchSql(f.search, LLM_SEARCH, 'lq');
    where.push(s.where);
    Object.assign(params, s.params);
  }
  if (f.session !== undefined) {
    where.push(`${SESSION_SQL} = {session:String}`);
    params.session = f.session;
  }
  if (f.score) {
    const s = scoreConditionSql({ projectId: f.projectId, retentionDays: f.scoreRetentionDays ?? f.retentionDays }, f.score);
    where.push(s.where);
    Object.assign(params, s.params);
  }
  return { where, params };
}
