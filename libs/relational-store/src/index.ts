export { RelationalStoreError, relationalFailure, type RelationalStore, type SqlExecutor } from './relational-store.ts';
export { createPgStore, type PgStoreOptions } from './pg-store.ts';
export { createPgliteStore } from './pglite-store.ts';
export { migrateRelational, MIGRATIONS } from './migrations.ts';
export { projectsRepo, isUuid, PROJECT_CHANGED_CHANNEL, type Project, type ProjectsRepo, type KeyGrant } from './projects-repo.ts';
export { rateLimitRepo, type RateLimitRepo } from './rate-limit-repo.ts';
export { usersRepo, type UsersRepo, type User, type Role, type SessionView, type SessionLimits } from './users-repo.ts';
export { loginThrottleRepo, throttleDelayMs, THROTTLE_RESET_MS, type LoginThrottleRepo, type ThrottleBucket, type ThrottleRule } from './login-throttle-repo.ts';
