import { z } from 'zod';

// Text fields of request bodies: what PostgreSQL can hold (names, releases, patterns, queries),
// and minimum lengths counted as the OpenAPI document counts them.

/** PostgreSQL text cannot hold U+0000: refused here rather than by the database. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what this refuses.
export const pgText = () => z.string().regex(/^[^\u0000]*$/, 'must not contain NUL (U+0000) characters');

/**
 * A name a person types (a project's, a saved search's): not blank, no NUL, the ASCII spaces
 * around it dropped. One pattern, so the OpenAPI document says all of it, and of whitespace
 * only the ASCII kinds, on which JavaScript and the tools that read the document agree.
 */
export const nameText = (max: number) =>
  z
    .string()
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what the pattern refuses (as pgText)
    .regex(/^[^\u0000]*[^\u0000 \t\n\r\f\v][^\u0000]*$/, 'must not be blank or contain NUL (U+0000) characters')
    .transform((s) => s.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, ''));

/**
 * At least `min` characters as JSON Schema counts them (code points), not as zod's .min does
 * (UTF-16 units, so an emoji counts twice): the document's minLength then means what it says.
 */
export const minChars = (s: z.ZodString, min: number) => {
  const message = `at least ${min} characters`;
  return s.min(min, message).refine((v) => codePoints(v) >= min, message);
};

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
