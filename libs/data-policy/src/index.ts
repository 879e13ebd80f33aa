// A project's data policy (docs/data.md): its schema and defaults, the scrubber, sampling.
export {
  dataPolicySchema,
  resolvePolicy,
  retentionSchema,
  scrubbingSchema,
  scrubRuleSchema,
  quotasSchema,
  quotaSchema,
  spikeGuardSchema,
  samplingSchema,
  llmPolicySchema,
  MAX_LLM_ATTRIBUTES,
  scrubActions,
  KIND_NAMES,
  SAMPLED_KINDS,
  MAX_RULES,
  MAX_PATTERN_LENGTH,
  MAX_PER_MINUTE,
  MAX_PER_DAY,
  nameOfKind,
  type DataPolicy,
  type DataPolicyInput,
  type KindQuota,
  type ResolvedPolicy,
  type Scrubbing,
  type ScrubRule,
  type ScrubAction,
} from './policy.ts';
export { compileScrubber, FILTERED, type Scrubber } from './scrub/scrubber.ts';
export { scrubCertificate, UNCHANGED } from './scrub/certificate.ts';
export { dropContent, parsePayloads, scrubEvents } from './scrub/scrub-events.ts';
export {
  MAX_PROGRAM_SIZE,
  MAX_TOTAL_PROGRAM_SIZE,
  MAX_REPETITION_SUM,
  SCRUB_BUDGET_MS,
  WORST_NS_PER_CHAR_INSTRUCTION,
  scrubBudget,
  BudgetSpent,
  CLOCK_EVERY_CHARS,
  worstNs,
  type ScrubBudget,
} from './scrub/rule-cost.ts';
export { isSecretKey, keyWords, SECRET_WORDS } from './scrub/secret-keys.ts';
export { luhn, replaceCards } from './scrub/credit-cards.ts';
export { VALUE_PATTERNS, type ValuePatternName } from './scrub/value-patterns.ts';
export { keepTrace, traceHash } from './sampling.ts';
