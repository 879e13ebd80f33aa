import type { ProjectJson } from './api-schemas.ts';
import type { Project } from '@devtrail/relational-store';

export function projectJson(p: Project): ProjectJson {
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
