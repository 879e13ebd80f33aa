import { z } from 'zod';
import { pgText } from '@devtrail/http';
import { MAX_COMMENT_CHARS } from '@devtrail/relational-store';

// Request schemas of the ownership routes (ownership-routes.ts); the OpenAPI document is made from them.

/** Assigning a group: a user of the project, or null to unassign. */
export const assigneeBody = z.object({ user_id: z.string().uuid().nullable() }).strict();

/** A comment on a group. */
export const commentBody = z.object({ body: pgText().trim().min(1).max(MAX_COMMENT_CHARS) }).strict();
