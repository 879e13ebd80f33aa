export { RelationalStoreError, relationalFailure, type RelationalStore, type SqlExecutor } from './relational-store.ts';
export { createPgStore, type PgStoreOptions } from './pg-store.ts';
export { createPgliteStore } from './pglite-store.ts';
export { migrateRelational, MIGRATIONS } from './migrations.ts';
export { projectsRepo, isUuid, PROJECT_CHANGED_CHANNEL, type Project, type ProjectsRepo, type KeyGrant } from './projects-repo.ts';
export { rateLimitRepo, type RateLimitRepo } from './rate-limit-repo.ts';
export { usersRepo, type UsersRepo, type User, type Role, type SessionView, type SessionLimits } from './users-repo.ts';
export { loginThrottleRepo, throttleDelayMs, THROTTLE_RESET_MS, type LoginThrottleRepo, type ThrottleBucket, type ThrottleRule } from './login-throttle-repo.ts';
export { idempotencyRepo, type IdempotencyRepo } from './idempotency-repo.ts';
export { dataPolicyRepo, type DataPolicyRepo } from './data-policy-repo.ts';
export { quotaRepo, type QuotaRepo } from './quota-repo.ts';
export {
  deletionsRepo,
  PROJECT_DELETED_CHANNEL,
  EVENTS_DELETED_CHANNEL,
  type Deletion,
  type DeletionReason,
  type DeletionStatus,
  type DeletionsRepo,
} from './deletions-repo.ts';
export {
  triageRepo,
  effectiveStatus,
  freshState,
  lockStates,
  saveState,
  addHistory,
  touchReleases,
  releasesFirstSeen,
  GROUP_STATUSES,
  GROUP_SUBSTATUSES,
  SYSTEM_ACTOR,
  type TriageRepo,
  type GroupState,
  type GroupStatus,
  type GroupSubstatus,
  type Actor,
  type HistoryEntry,
  type TriageChange,
} from './error-groups/triage-repo.ts';
export {
  ownershipRepo,
  MAX_COMMENTS_PER_GROUP,
  MAX_COMMENT_CHARS,
  COMMENTS_PAGE,
  type OwnershipRepo,
  type Assignee,
  type Comment,
  type AssignRefusal,
} from './error-groups/ownership-repo.ts';
export {
  alertsRepo,
  newSigningSecret,
  ALERT_RULES_CHANNEL,
  ALERT_PENDING_CHANNEL,
  type AlertsRepo,
  type AlertRule,
  type RuleInput,
  type Destination,
  type DestinationType,
  type NewNotification,
  type DueNotification,
  type Attempt,
  type NotificationView,
} from './alerts-repo.ts';
export { sourceMapsRepo, type SourceMapsRepo, type SourceMapInfo, type SourceMapUpload } from './source-maps-repo.ts';
export { mapFiles, type MapFiles } from './source-map-files.ts';
export { keepPriceEdits, type PriceEditsKeeper } from './llm-prices/price-edits-keeper.ts';
export { llmPriceEditsRepo, MAX_PRICE_EDITS, type LlmPriceEditsRepo, type PriceEdit } from './llm-prices/llm-price-edits-repo.ts';
export { savedQueriesRepo, MAX_SAVED_QUERIES, type SavedQueriesRepo, type SavedQuery } from './saved-queries-repo.ts';
export { uploadTokensRepo, MAX_UPLOAD_TOKENS, type UploadTokensRepo, type UploadToken } from './upload-tokens-repo.ts';
export {
  errorGroupsRepo,
  MAX_MERGES,
  PREVIOUS_RULE_DAYS,
  type ErrorGroupsRepo,
  type GroupLookup,
  type Merge,
  type MergeRefusal,
} from './error-groups/error-groups-repo.ts';
export {
  promptsRepo,
  PROMPT_CHANGED_CHANNEL,
  type PromptsRepo,
  type Prompt,
  type PromptSummary,
  type PromptVersion,
  type PromptVersionInfo,
  type PromptContent,
  type PromptType,
  type ChatMessage,
  type NewPromptVersion,
  type PromptRefusal,
} from './prompts/prompts-repo.ts';
export * as PROMPT_LIMITS from './prompts/prompt-limits.ts';
