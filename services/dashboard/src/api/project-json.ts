import type { Project } from '@devtrail/relational-store';

/** The project as the API shows it: snake_case, never a key or a secret. */
export function projectJson(p: Project) {
  return {
    id: p.id,
    name: p.name,
    key_prefix: p.keyPrefix,
    key_created_at: p.keyCreatedAt,
    allowed_origins: p.allowedOrigins,
    rate_limit_per_minute: p.rateLimitPerMinute,
    has_drain_secret: p.hasDrainSecret,
    created_at: p.createdAt,
  };
}
