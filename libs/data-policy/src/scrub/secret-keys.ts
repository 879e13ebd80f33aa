// The default key rule (docs/data.md#default-rules): a key looks like it holds a secret when
// one of its words, or two adjacent words written together, is in SECRET_WORDS. Words are
// what separators (anything but letters and digits) and camelCase boundaries cut a key
// into, lowercased: `X-Api-Key`, `apiKey` and `API_KEY` are all "api key", hence `apikey`.
// Words, not substrings, so `input_tokens` or `author` keep their values; a word written
// without separators in one case (`PASSWORDHASH`, `accesstoken`) still counts when it begins
// or ends with one of the longer secret words, or ends with `token`.

export const SECRET_WORDS: ReadonlySet<string> = new Set([
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'auth',
  'authorization',
  'authentication',
  'cookie',
  'cookies',
  'setcookie',
  'session',
  'sessionid',
  'credential',
  'credentials',
  'privatekey',
  'accesskey',
  'secretkey',
  'csrf',
  'xsrf',
  'creditcard',
  'cardnumber',
  'cvv',
  'cvc',
  'ssn',
]);

// Any of the words' first letters' neighbourhood: a key without one of these cannot match.
const QUICK = /pass|pwd|secret|token|key|auth|cookie|session|cred|csrf|xsrf|card|cv[vc]|ssn/i;
const CAMEL = /([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])/g;
const SEPARATORS = /[^A-Za-z0-9]+/;

/** The key's words, lowercased (exported for tests). */
export function keyWords(key: string): string[] {
  return key
    .replace(CAMEL, (_m, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`))
    .split(SEPARATORS)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const LONG_WORDS = [...SECRET_WORDS].filter((w) => w.length >= 6);
const secretWord = (w: string) => SECRET_WORDS.has(w) || w.endsWith('token') || LONG_WORDS.some((s) => w.startsWith(s) || w.endsWith(s));

/** Keys longer than this are not cut into words: one that holds a secret word's letters counts as secret (no key that long names a field). */
export const MAX_KEY_WORDS_CHARS = 256;

/** True when a key looks like it holds a secret (case-insensitive, any separators). */
export function isSecretKey(key: string): boolean {
  if (!QUICK.test(key)) return false;
  if (key.length > MAX_KEY_WORDS_CHARS) return true;
  const words = keyWords(key);
  for (let i = 0; i < words.length; i++) {
    if (secretWord(words[i])) return true;
    if (i + 1 < words.length && secretWord(words[i] + words[i + 1])) return true;
  }
  return false;
}
