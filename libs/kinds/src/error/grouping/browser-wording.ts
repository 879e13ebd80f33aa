// One JavaScript error in each browser's words (Chrome, Firefox, Safari, and older Chrome and
// Edge), read as one sentence, so that a report without a usable stack groups the same from
// every browser (docs/fingerprint.md, "Browsers' words"). What stays is what the code chose (the
// property it read, the function it called); what the browser or the bundler chose (its
// wording, a renamed variable, a chunk's id or URL) goes. Each pattern is anchored and bounded.

const WORDINGS: Array<[RegExp, string]> = [
  // Reading a property of undefined or null.
  [/^Cannot read propert(?:y|ies) of (?:undefined|null) \(reading '([^'\n]{1,100})'\)/, 'cannot read property $1 of nothing'],
  [/^Cannot read property '([^'\n]{1,100})' of (?:undefined|null)/, 'cannot read property $1 of nothing'],
  [/^Unable to get property '([^'\n]{1,100})' of undefined or null reference/, 'cannot read property $1 of nothing'],
  [/^can't access property "([^"\n]{1,100})", \S{1,200} is (?:undefined|null)/, 'cannot read property $1 of nothing'],
  [/^(?:undefined|null) is not an object \(evaluating '[^'\n]{0,200}?([\w$]+)'\)/, 'cannot read property $1 of nothing'],
  // Setting one.
  [/^Cannot set propert(?:y|ies) of (?:undefined|null) \(setting '([^'\n]{1,100})'\)/, 'cannot set property $1 of nothing'],
  [/^can't assign to property "([^"\n]{1,100})" on \S{1,200}/, 'cannot set property $1 of nothing'],
  // Calling what is not a function.
  [/^\S{0,200}?([\w$]+) is not a function(?:\. \(In '.*)?/, 'function $1 is missing'],
  // A fetch that did not reach the server (Chrome may add the host in brackets).
  [
    /^(?:Failed to fetch(?: \([^)\n]{0,200}\))?|NetworkError when attempting to fetch resource\.?|Load failed|Network request failed|fetch failed)$/,
    'network request failed',
  ],
  // An aborted fetch.
  [/^(?:signal is aborted without reason|The operation was aborted\.?|Fetch is aborted|The user aborted a request\.?)$/, 'request aborted'],
  // A bundle's chunk that did not load: webpack's words (any chunk id or name, any reason and URL).
  [/^Loading CSS chunk \S{1,200} failed\.?[\s\S]*$/, 'css chunk failed to load'],
  [/^Loading chunk \S{1,200} failed\.?[\s\S]*$/, 'chunk failed to load'],
  // A dynamic import that did not load (Vite): Chrome's, Firefox's, Safari's words.
  [/^(?:Failed to fetch dynamically imported module|error loading dynamically imported module)(?::[\s\S]*)?$/, 'chunk failed to load'],
  [/^Importing a module script failed\.?$/, 'chunk failed to load'],
];

/** The message as one sentence across browsers' wordings, when it is one of theirs. */
export function browserWording(message: string): string {
  for (const [re, to] of WORDINGS) if (re.test(message)) return message.replace(re, to);
  return message;
}
