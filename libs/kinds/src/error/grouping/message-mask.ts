import { browserWording } from './browser-wording.ts';

// An error message with its parameters stripped: what stays is the sentence the code wrote,
// so that one error reported with other ids, values, addresses or paths, from another
// operating system or browser, is one group when the report has no usable stack
// (docs/fingerprint.md, "Without a usable stack"). The order matters: a URL holds paths and
// numbers, a quoted literal may hold anything, an IPv6 address holds hex and an IPv4 one, an
// id holds digits. Each pattern is linear (no nested quantifiers over the same characters)
// and sees at most MESSAGE_CHARS characters.

export const MESSAGE_CHARS = 1000;

// A quoted literal's body: any character but the quote, or a backslash escape (`"say \"hi\""`).
const quoted = (open: string, close: string) => `${open}(?:[^${close}\\\\\\n]|\\\\.){0,200}${close}`;

const MASKS: Array<[RegExp, string]> = [
  // URLs of any scheme, with their query and fragment (https://…?id=7#top, postgres://u@h:5432/db)
  [/\b[a-z][\w+.-]{0,20}:\/\/[^\s'"<>()]*/gi, '<url>'],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, '<email>'],
  // Quoted literals: '…', "…", `…`, `…' (Ruby), “…”, ‘…’. A quote opens after a space,
  // an opening bracket or a separator, and closes before one, so "can't" and "don't" do not.
  [
    new RegExp(`(^|[\\s([{:=,])(?:${quoted("'", "'")}|${quoted('"', '"')}|\`[^\`'\\n]{0,200}[\`']|“[^”\\n]{0,200}”|‘[^’\\n]{0,200}’)(?=$|[\\s)\\]},.:;!?])`, 'g'),
    '$1<str>',
  ],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  // ULIDs (Crockford base32, 26 characters)
  [/\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b/g, '<id>'],
  // Prefixed ids: Stripe's req_…, cus_…, pi_…, sk_live_…; a base62 tail of 8 or more with a digit or a capital
  [/\b[a-z][a-z0-9]{0,15}(?:_[a-z0-9]{1,15})*_(?=[A-Za-z0-9]*[0-9A-Z])[A-Za-z0-9]{8,}\b/g, '<id>'],
  // Date-times, dates, times of day
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  // IPv6 in brackets, with a port ([::1]:6379, [2001:db8::7]:443); then bare IPv6 with "::" or
  // eight groups, an embedded IPv4, a zone and a port (::1:5432, ::ffff:10.0.0.5, 0:0:0:0:0:0:0:1:5432)
  [/\[[0-9a-f:.]{2,45}(?:%[\w.-]{1,20})?\](?::\d{1,5})?/gi, '<ip>'],
  [
    /(?<![\w:.])(?=[0-9a-f:.]*\d)(?=[0-9a-f:.]*::|(?:[0-9a-f]{1,4}:){7})[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,8}(?:\.\d{1,3}){0,3}(?:%[\w.-]{1,20})?(?::\d{1,5})?(?![\w:])/gi,
    '<ip>',
  ],
  // IPv4 with an optional port
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g, '<ip>'],
  // Windows paths, whatever the slashes and spaces inside (C:\Users\Ana Maria\shop\config.yaml,
  // C:/Users/ana/x.csv, \\server\share\x, .\logs\x.log): folders may hold spaces, the last part not
  [/(^|[\s([=:'"])(?:[A-Za-z]:[\\/]|\\\\|\.{1,2}\\)(?:[^\\/\n'"<>|*?:]{1,100}[\\/]){0,30}[^\s\\/'"<>|*?:,;()]*/g, '$1<path>'],
  // Unix paths: absolute, home, relative (/home/ana/…, /Users/ana/…, ~/…, ./…)
  // (a colon or full stop after it is the sentence's, as after a Windows path)
  [/(^|[\s([=:'"])(?:~?\/|\.{1,2}\/)[^\s'"()<>,;]*[^\s'"()<>,;:.]/g, '$1<path>'],
  // A URL without its scheme (after paths, so that /home/li.wei/x is a path): a host of two or more labels with a top-level name, then a path
  // (cdn.shop.example.com/assets/index-DiwrgTda.js)
  [/\b(?:[a-z0-9-]{1,63}\.){1,10}[a-z]{2,24}(?::\d{1,5})?\/[^\s'"<>()]*/gi, '<url>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // Hex ids of 6 or more with a digit (7f3a1b, a3f9c2): the letters' places vary, and some
  // have none (709959), so they read as the number they are
  [/\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b/gi, '<n>'],
  // Any other word of 8 or more letters, digits, "-" or "_" holding both a digit and a letter
  // (hex digests, base62 and base64url tokens, ERR codes with digits are masked alike)
  [/\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]{7,}/g, '<id>'],
  [/\d+(?:\.\d+)?/g, '<n>'],
];

/** The message with ids, values, addresses, paths, times and quoted literals masked; whitespace collapsed. */
export function stripMessage(message: string): string {
  let out = browserWording(message.trim().slice(0, MESSAGE_CHARS));
  for (const [re, token] of MASKS) out = out.replace(re, token);
  return out.replace(/\s+/g, ' ').trim();
}
