import { z } from 'zod';
import { pgText } from '../api/api-schemas.ts';

// Bodies of the /auth routes. Usernames are case-insensitive (stored lower-case).
export const username = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[a-z0-9][a-z0-9._@-]{0,99}$/, 'letters, digits and . _ @ - (at most 100)'));
export const password = z.string().min(8, 'at least 8 characters').max(200);

export const credentialsBody = z.object({ username, password });
export const loginBody = z.object({ username: pgText().trim().toLowerCase().max(100), password: z.string().max(200) });
export const memberBody = z.object({ username });
export const memberParams = z.object({ id: z.string().uuid(), userId: z.string().uuid().optional() });
