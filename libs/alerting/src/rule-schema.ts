import { z } from 'zod';
import { pgText } from '@devtrail/http';
import { EVENT_KINDS, logLevels, MAX_RELEASE_LENGTH, MAX_SCORE_NAME, type EventKind } from '@devtrail/kinds';
import { webhookUrlProblem } from './safe-request.ts';

// Alert rules as the API takes them (docs/alerts.md, "Rules"). A rule is a type, its
// parameters, and where its notifications go. Windows are whole minutes, at most a day.

export const RULE_TYPES = [
  'new_group',
  'regressed_group',
  'group_assigned',
  'event_count',
  'llm_cost',
  'no_events',
  'consumer_lag',
  'crash_free_rate',
  'llm_score',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];

export const MAX_WINDOW_MINUTES = 1440;
export const MAX_DESTINATIONS = 10;
/** crash_free_rate: fewer sessions than this in a release's window say too little to page anyone. */
export const DEFAULT_MIN_SESSIONS = 20;
export const MAX_MIN_SESSIONS = 1_000_000;
export const DEFAULT_CRASH_FREE_WINDOW_MINUTES = 60;
/** llm_score: the window an average is taken over, and how many scores it needs by default. */
export const DEFAULT_SCORE_WINDOW_MINUTES = 60;
export const DEFAULT_MIN_SCORES = 10;
export const MAX_MIN_SCORES = 1_000_000;

const windowMinutes = z.number().int().min(1).max(MAX_WINDOW_MINUTES);

export const ruleParams = {
  new_group: z.object({}).strict(),
  regressed_group: z.object({}).strict(),
  // A person assigned a group (docs/alerts.md, "Owning an issue"): the dashboard queues it.
  group_assigned: z.object({}).strict(),
  event_count: z
    .object({
      source: z.enum(['error_group', 'log_level', 'error_spans']),
      level: z.enum(logLevels).optional(),
      threshold: z.number().int().min(0).max(1_000_000_000),
      window_minutes: windowMinutes,
    })
    .strict()
    .refine((p) => (p.source === 'log_level') === (p.level !== undefined), { message: 'level is required for source log_level, and only for it', path: ['level'] }),
  llm_cost: z.object({ budget_usd: z.number().positive().max(1e9), window_minutes: windowMinutes }).strict(),
  no_events: z.object({ kind: z.enum(EVENT_KINDS as [EventKind, ...EventKind[]]), window_minutes: windowMinutes }).strict(),
  consumer_lag: z.object({ max_lag: z.number().int().min(0).max(1e12), window_minutes: windowMinutes }).strict(),
  // Shares 0..1 as the read API's crash_free_sessions (docs/api.md#release-health).
  crash_free_rate: z
    .object({
      threshold: z.number().positive().max(1),
      min_sessions: z.number().int().min(1).max(MAX_MIN_SESSIONS).default(DEFAULT_MIN_SESSIONS),
      window_minutes: windowMinutes.default(DEFAULT_CRASH_FREE_WINDOW_MINUTES),
      release: pgText().min(1).max(MAX_RELEASE_LENGTH).optional(),
      environment: pgText().min(1).max(200).optional(),
    })
    .strict(),
  // The average of a numeric or boolean score (docs/api.md, "Scores") under a bound.
  llm_score: z
    .object({
      name: pgText().min(1).max(MAX_SCORE_NAME),
      threshold: z.number().finite().min(-1e15).max(1e15),
      min_scores: z.number().int().min(1).max(MAX_MIN_SCORES).default(DEFAULT_MIN_SCORES),
      window_minutes: windowMinutes.default(DEFAULT_SCORE_WINDOW_MINUTES),
    })
    .strict(),
} satisfies Record<RuleType, z.ZodTypeAny>;

export type RuleParams = {
  [K in RuleType]: z.infer<(typeof ruleParams)[K]>;
};

export const destinationInput = z
  .object({
    type: z.enum(['webhook', 'slack']),
    url: pgText()
      .max(2000)
      .superRefine((u, ctx) => {
        const problem = webhookUrlProblem(u);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      }),
  })
  .strict();

export const ruleInput = z
  .object({
    name: pgText().trim().min(1).max(200),
    type: z.enum(RULE_TYPES),
    params: z.record(z.unknown()).default({}),
    enabled: z.boolean().default(true),
    destinations: z
      .array(z.union([destinationInput, z.object({ id: z.string().uuid() }).strict()]))
      .min(1)
      .max(MAX_DESTINATIONS),
  })
  .strict()
  .superRefine((r, ctx) => {
    const parsed = ruleParams[r.type].safeParse(r.params);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['params', ...issue.path] });
  })
  .transform((r) => ({ ...r, params: ruleParams[r.type].parse(r.params) as Record<string, unknown> }));

export type RuleInputBody = z.infer<typeof ruleInput>;
