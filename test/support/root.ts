/** The repository's root folder, with a trailing slash. */
export const ROOT = new URL('../../', import.meta.url).pathname;
