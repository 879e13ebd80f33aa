import { z } from 'zod';
import { EVENT_KINDS, KINDS, MAX_RETENTION_DAYS, type EventKind } from '@devtrail/kinds';
import { pgText } from '@devtrail/http';
import { MAX_TOTAL_PROGRAM_SIZE, programSize, tooExpensive } from './scrub/rule-cost.ts';

// A project's data policy (docs/data.md): what the admin API takes, what PostgreSQL stores
// (data_policies.policy) and what the receiver applies. Every part is optional; an absent
// part is its default. Kinds are named as in topics and tables (logs, errors, spans, llm).

export const KIND_NAMES = EVENT_KINDS.map((k) => KINDS[k].name) as [string, ...string[]];
export const nameOfKind = (kind: EventKind) => KINDS[kind].name;
/** The name of the kind a kind's data is part of (scores: llm), whose retention it keeps unless set. */
const partOfName = (kind: EventKind) => {
  const of = KINDS[kind].partOf;
  return of ? KINDS[of as EventKind].name : undefined;
};
/** Kinds that may be sampled: trace-consistent by the trace id (sampling.ts). */
export const SAMPLED_KINDS = ['logs', 'spans'] as const;

/** Bounds on operators' rules: RE2 is linear in the input, these bound the pattern and their number. */
export const MAX_RULES = 50;
export const MAX_PATTERN_LENGTH = 200;
export const MAX_PER_MINUTE = 100_000_000;
export const MAX_PER_DAY = 10_000_000_000;

const days = z.number().int().min(1).max(MAX_RETENTION_DAYS);
const perKind = <T extends z.ZodTypeAny>(t: T) => z.object(Object.fromEntries(KIND_NAMES.map((n) => [n, t.optional()])) as Record<string, z.ZodOptional<T>>).strict();

export const retentionSchema = perKind(days.nullable());

export const scrubActions = ['filter', 'remove', 'mask', 'hash'] as const;
export type ScrubAction = (typeof scrubActions)[number];
const action = z.enum(scrubActions).default('filter');

// A NUL is written \x00 (PostgreSQL keeps the policy and cannot hold the character itself).
const re2Pattern = pgText()
  .min(1)
  .max(MAX_PATTERN_LENGTH)
  .superRefine((p, ctx) => {
    let cost: ReturnType<typeof tooExpensive>;
    try {
      cost = tooExpensive(p);
    } catch (err) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Not an RE2 regular expression: ${(err as Error).message}` });
      return;
    }
    if (cost) ctx.addIssue({ code: z.ZodIssueCode.custom, message: cost.reason });
  });

export const scrubRuleSchema = z.discriminatedUnion('match', [
  z.object({ match: z.literal('key'), pattern: re2Pattern, action }).strict(),
  z.object({ match: z.literal('regex'), pattern: re2Pattern, action }).strict(),
  z.object({ match: z.enum(['secret_keys', 'creditcard', 'email', 'ipv4', 'ipv6', 'ip']), action }).strict(),
]);
export type ScrubRule = z.output<typeof scrubRuleSchema>;

export const scrubbingSchema = z
  .object({
    /** The default rules (secret-looking keys, card numbers): on unless turned off. */
    defaults: z.boolean().default(true),
    rules: z
      .array(scrubRuleSchema)
      .max(MAX_RULES)
      .default([])
      .superRefine((rules, ctx) => {
        // Each pattern passed its own check (rule-cost.ts): together they are bounded too.
        let total = 0;
        for (const r of rules) if ('pattern' in r) total += programSize(r.pattern) ?? 0;
        if (total > MAX_TOTAL_PROGRAM_SIZE)
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `Too expensive: the patterns compile to ${total} RE2 instructions together (at most ${MAX_TOTAL_PROGRAM_SIZE})`,
          });
      }),
  })
  .strict();
export type Scrubbing = z.output<typeof scrubbingSchema>;

const limit = (max: number) => z.number().int().min(1).max(max).nullable().optional();
export const quotaSchema = z.object({ per_minute: limit(MAX_PER_MINUTE), per_day: limit(MAX_PER_DAY) }).strict();
export const quotasSchema = perKind(quotaSchema);

export const spikeGuardSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** Refuse above this many times the recent baseline (events per minute over the last hour). */
    factor: z.number().min(1.5).max(1000).default(10),
    /** ... never below this many events per minute. */
    min_per_minute: z.number().int().min(1).max(MAX_PER_MINUTE).default(1000),
  })
  .strict();

const rate = z.number().min(0).max(1);
export const samplingSchema = z.object({ logs: rate.optional(), spans: rate.optional() }).strict();

/** Attribute names a project may keep in LLM calls' metadata (docs/data.md). */
export const MAX_LLM_ATTRIBUTES = 50;
export const llmPolicySchema = z
  .object({
    /** Keep the calls' conversations (input and output messages); off: they are never stored. */
    capture_content: z.boolean().default(true),
    /** Span or resource attributes of OTLP GenAI spans kept in the call's metadata (enduser.id, session.id and the prompt's attributes always are: libs/kinds llm/prompt-link.ts). */
    metadata_attributes: z.array(pgText().min(1).max(256)).max(MAX_LLM_ATTRIBUTES).default([]),
  })
  .strict();

export const dataPolicySchema = z
  .object({
    retention_days: retentionSchema.optional(),
    scrubbing: scrubbingSchema.optional(),
    quotas: quotasSchema.optional(),
    spike_guard: spikeGuardSchema.optional(),
    sampling: samplingSchema.optional(),
    llm: llmPolicySchema.optional(),
  })
  .strict();
export type DataPolicyInput = z.input<typeof dataPolicySchema>;
export type DataPolicy = z.output<typeof dataPolicySchema>;

export interface KindQuota {
  perMinute: number | null;
  perDay: number | null;
}

/** A policy with every default filled in, as the receiver and the dashboard apply it. */
export interface ResolvedPolicy {
  /** Days per kind id: the project's setting or the deployment's RETENTION_DAYS. */
  retentionDays: Record<EventKind, number>;
  /** Whether each kind's retention is the project's own setting. */
  retentionSet: Record<EventKind, boolean>;
  scrubbing: Scrubbing;
  quotas: Record<EventKind, KindQuota>;
  spikeGuard: z.output<typeof spikeGuardSchema>;
  /** Share of events kept, per kind id (1: every event). */
  sampling: Record<EventKind, number>;
  llm: z.output<typeof llmPolicySchema>;
}

const byKind = <T>(f: (kind: EventKind) => T) => Object.fromEntries(EVENT_KINDS.map((k) => [k, f(k)])) as Record<EventKind, T>;

/**
 * The stored policy resolved against the deployment's default retention. A stored policy
 * that no longer parses (written by a newer version) falls back to the defaults part by
 * part, never to no scrubbing: an unreadable scrubbing part means the default rules.
 */
export function resolvePolicy(stored: unknown, defaultRetentionDays: number): ResolvedPolicy {
  const obj = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const part = <T extends z.ZodTypeAny>(schema: T, v: unknown): z.output<T> | undefined => {
    const r = schema.safeParse(v);
    return r.success ? r.data : undefined;
  };
  const retention = part(retentionSchema, obj.retention_days) ?? {};
  const quotas = part(quotasSchema, obj.quotas) ?? {};
  const sampling = part(samplingSchema, obj.sampling) ?? {};
  return {
    retentionDays: byKind((k) => retention[nameOfKind(k)] ?? retention[partOfName(k) ?? ''] ?? defaultRetentionDays),
    retentionSet: byKind((k) => typeof (retention[nameOfKind(k)] ?? retention[partOfName(k) ?? '']) === 'number'),
    scrubbing: part(scrubbingSchema, obj.scrubbing ?? {}) ?? scrubbingSchema.parse({}),
    quotas: byKind((k) => ({ perMinute: quotas[nameOfKind(k)]?.per_minute ?? null, perDay: quotas[nameOfKind(k)]?.per_day ?? null })),
    spikeGuard: part(spikeGuardSchema, obj.spike_guard ?? {}) ?? spikeGuardSchema.parse({}),
    sampling: byKind((k) => (sampling as Record<string, number | undefined>)[nameOfKind(k)] ?? 1),
    llm: part(llmPolicySchema, obj.llm ?? {}) ?? llmPolicySchema.parse({}),
  };
}
