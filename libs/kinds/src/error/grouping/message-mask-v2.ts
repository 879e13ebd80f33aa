// FROZEN: the message masks of grouping rule v2, as they were before the cross-platform
// normalisations (message-mask.ts). The receiver still computes v2's fingerprint so that a
// group v2 made keeps its events (docs/fingerprint.md, "Upgrading"); changing this file
// would split those groups. v2's text, kept as it was:
//
// An error message with its parameters stripped: what stays is the sentence the code wrote,
// so that one error reported with other ids, values or addresses is one group when the
// report has no usable stack (docs/fingerprint.md, "Without a usable stack"). The order
// matters: a URL holds paths and numbers, a quoted literal may hold anything, an id holds
// digits. Each pattern is linear (no nested quantifiers over the same characters) and sees at
// most MESSAGE_CHARS characters.

const MESSAGE_CHARS = 1000;

const MASKS: Array<[RegExp, string]> = [
  // URLs of any scheme, with their query (https://…?id=7, postgres://u@h:5432/db)
  [/\b[a-z][\w+.-]{0,20}:\/\/[^\s'"<>()]*/gi, '<url>'],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, '<email>'],
  // Quoted literals: '…', "…", `…`, `…' (Ruby), “…”, ‘…’. A quote opens after a space,
  // an opening bracket or a separator, and closes before one, so "can't" and "don't" do not.
  [/(^|[\s([{:=,])(?:'[^'\n]{0,200}'|"[^"\n]{0,200}"|`[^`'\n]{0,200}[`']|“[^”\n]{0,200}”|‘[^’\n]{0,200}’)(?=$|[\s)\]},.:;!?])/g, '$1<str>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  // ULIDs (Crockford base32, 26 characters)
  [/\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b/g, '<id>'],
  // Prefixed ids: Stripe's req_…, cus_…, pi_…, sk_live_…; a base62 tail of 8 or more with a digit or a capital
  [/\b[a-z][a-z0-9]{0,15}(?:_[a-z0-9]{1,15})*_(?=[A-Za-z0-9]*[0-9A-Z])[A-Za-z0-9]{8,}\b/g, '<id>'],
  // Date-times, dates, times of day
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  // IPv4 with an optional port; IPv6 (at least three groups, with "::" or eight)
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g, '<ip>'],
  [/(?<![\w:])(?:[0-9a-f]{1,4}:){2,7}:?[0-9a-f]{0,4}(?![\w:])/gi, '<ip>'],
  // Paths: absolute, home, relative, Windows (C:\…)
  [/(^|[\s(=:'"])(?:[A-Za-z]:\\|~?\/|\.{1,2}\/)[^\s'"()<>,;]+/g, '$1<path>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // Any other word of 8 or more letters, digits, "-" or "_" holding both a digit and a letter
  // (hex digests, base62 and base64url tokens, ERR codes with digits are masked alike)
  [/\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]{7,}/g, '<id>'],
  [/\d+(?:\.\d+)?/g, '<n>'],
];

// One TypeError in three browsers' words (Chrome, Firefox, Safari), and a bundler's renamed
// variable in it: read as one sentence naming the property, which is the code's, not data.
const BROWSER_WORDINGS: Array<[RegExp, string]> = [
  [/^Cannot read propert(?:y|ies) of (?:undefined|null) \(reading '([^'\n]{1,100})'\)/, 'cannot read property $1 of nothing'],
  [/^can't access property "([^"\n]{1,100})", \S{1,200} is (?:undefined|null)/, 'cannot read property $1 of nothing'],
  [/^(?:undefined|null) is not an object \(evaluating '[^'\n]{0,200}?([\w$]+)'\)/, 'cannot read property $1 of nothing'],
  [/^\S{0,200}?([\w$]+) is not a function(?:\. \(In '.*)?/, 'function $1 is missing'],
];

/** The message as one sentence across browsers' wordings, when it is one of theirs. */
function browserWording(message: string): string {
  for (const [re, to] of BROWSER_WORDINGS) if (re.test(message)) return message.replace(re, to);
  return message;
}

/** The message with ids, values, addresses, paths, times and quoted literals masked; whitespace collapsed. */
export function stripMessageV2(message: string): string {
  let out = browserWording(message.trim().slice(0, MESSAGE_CHARS));
  for (const [re, token] of MASKS) out = out.replace(re, token);
  return out.replace(/\s+/g, ' ').trim();
}
