export { RelationalStoreError, relationalFailure, type RelationalStore, type SqlExecutor } from './relational-store.ts';
export { createPgStore, type PgStoreOptions } from './pg-store.ts';
export { createPgliteStore } from './pglite-store.ts';
export { migrateRelational, MIGRATIONS } from './migrations.ts';
export { projectsRepo, isUuid, PROJECT_CHANGED_CHANNEL, type Project, type ProjectsRepo, type KeyGrant } from './projects-repo.ts';
export { rateLimitRepo, type RateLimitRepo } from './rate-limit-repo.ts';
export { usersRepo, type UsersRepo, type User, type SessionView } from './users-repo.ts';
export { savedQueriesRepo, MAX_SAVED_QUERIES, type SavedQueriesRepo, type SavedQuery } from './saved-queries-repo.ts';
