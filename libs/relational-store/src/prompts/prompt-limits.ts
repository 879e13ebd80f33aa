// The prompt registry's bounds (docs/api.md, "Prompts"), each applied once: the API's schemas
// and the repository's checks import them, the migration's CHECKs repeat the patterns.

/** A prompt's name: a letter or digit, then letters, digits, ".", "_" or "-"; 1 to 100 characters. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const NAME_PATTERN_SQL = '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$';
/** A label: lower-case letters, digits, ".", "_" or "-", starting with a letter or digit; 1 to 36 characters. */
export const LABEL_PATTERN = /^[a-z0-9][a-z0-9._-]{0,35}$/;
export const LABEL_PATTERN_SQL = '^[a-z0-9][a-z0-9._-]{0,35}$';
/** The label that always names a prompt's newest version; never stored, never moved. */
export const LATEST_LABEL = 'latest';
/** The label getPrompt fetches by default (docs/sdk.md). */
export const DEFAULT_LABEL = 'production';
/** Prompts a project keeps; one more is refused (409). */
export const MAX_PROMPTS_PER_PROJECT = 500;
/** Versions a prompt keeps; one more is refused (409). */
export const MAX_VERSIONS_PER_PROMPT = 1000;
/** Labels (besides latest) on one prompt's versions; one more is refused (409). */
export const MAX_LABELS_PER_PROMPT = 20;
/** Characters of a version's content as JSON text (the text, or the messages); more is a 413. */
export const MAX_CONTENT_CHARS = 100_000;
/** Characters of a version's config as JSON text; more is a 413. */
export const MAX_CONFIG_CHARS = 10_000;
/** Messages of a chat prompt. */
export const MAX_CHAT_MESSAGES = 100;
/** Characters of a version's commit message. */
export const MAX_COMMIT_MESSAGE_CHARS = 500;
