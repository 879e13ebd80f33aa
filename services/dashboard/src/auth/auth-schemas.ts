import { z } from 'zod';
import { minChars, pgText } from '@devtrail/http';

// Bodies of the /auth routes. Usernames are case-insensitive (stored lower-case). Passwords:
// 12 to 200 characters (OWASP ASVS 2.1.1), any characters.
export const MIN_PASSWORD_LENGTH = 12;
export const username = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[a-z0-9][a-z0-9._@-]{0,99}$/, 'letters, digits and . _ @ - (at most 100)'));
export const password = minChars(z.string().max(200), MIN_PASSWORD_LENGTH);
export const role = z.enum(['member', 'viewer']);

export const setupBody = z.object({ username, password, setup_code: z.string().max(200) });
export const newUserBody = z.object({ username, password, role: role.default('member') });
export const loginBody = z.object({ username: pgText().trim().toLowerCase().max(100), password: z.string().max(200) });
export const passwordChangeBody = z.object({ current_password: z.string().max(200), new_password: password });
export const userPatchBody = z
  .object({ disabled: z.boolean().optional(), role: role.optional() })
  .refine((b) => b.disabled !== undefined || b.role !== undefined, 'give disabled, role or both');
export const userParams = z.object({ id: z.string().uuid() });
export const memberBody = z.object({ username });
export const memberParams = z.object({ id: z.string().uuid(), userId: z.string().uuid().optional() });
