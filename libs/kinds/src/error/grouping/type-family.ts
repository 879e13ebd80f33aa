import { typeName } from './error-type.ts';

// The type as grouping sees it, when one failure is typed two ways (docs/fingerprint.md, "One
// failure, two types"): a library's class beside its error code, a system error's code beside
// the generic class that carries it, a subclass beside the base class another path reports.
// The table is fixed (not read from the host's os.constants) so that every receiver computes
// the same fingerprint. A type not named here is its last name (error-type.ts).

// System error codes, with the numbers Linux (`[Errno 111]`) and Windows (`[WinError 10061]`) print.
const ERRNO: Record<string, number[]> = {
  ECONNREFUSED: [111, 10061],
  ECONNRESET: [104, 10054],
  ECONNABORTED: [103, 10053],
  ETIMEDOUT: [110, 10060],
  EHOSTUNREACH: [113, 10065],
  ENETUNREACH: [101, 10051],
  EADDRINUSE: [98, 10048],
  EADDRNOTAVAIL: [99, 10049],
  EPIPE: [32],
  ENOENT: [2],
  EACCES: [13],
  EPERM: [1],
  EEXIST: [17],
  EISDIR: [21],
  ENOTDIR: [20],
  ENOSPC: [28],
  EMFILE: [24],
  ENOTFOUND: [],
  EAI_AGAIN: [-3],
};
const BY_NUMBER = new Map(Object.entries(ERRNO).flatMap(([code, ns]) => ns.map((n) => [n, code] as const)));

// Classes that are one system error code (Python's OSError subclasses).
const CLASS_CODE: Record<string, string> = {
  ConnectionRefusedError: 'ECONNREFUSED',
  ConnectionResetError: 'ECONNRESET',
  ConnectionAbortedError: 'ECONNABORTED',
  BrokenPipeError: 'EPIPE',
  FileNotFoundError: 'ENOENT',
  FileExistsError: 'EEXIST',
  PermissionError: 'EACCES',
  IsADirectoryError: 'EISDIR',
  NotADirectoryError: 'ENOTDIR',
  TimeoutError: 'ETIMEDOUT',
};

// Generic classes that carry a system error code in their message (Node's Error and
// SystemError, Python's OSError and its old names, Ruby's SystemCallError).
const CARRIERS = new Set(['Error', 'SystemError', 'OSError', 'IOError', 'EnvironmentError', 'error', 'SystemCallError']);
const CODE_IN_MESSAGE = /\b(E[A-Z][A-Z_]{1,14})\b|\[(?:Errno|WinError) (-?\d{1,5})\]/g;

// A payment library's classes beside its error codes and types (Stripe's, in each of its SDKs).
const LIBRARY_FAMILIES: Array<[RegExp, string]> = [
  [
    /^(?:StripeCardError|stripe(?:\._?error)?\.CardError|Stripe::CardError|com\.stripe\.exception\.CardException|card_error|card_declined|expired_card|incorrect_cvc|incorrect_number|insufficient_funds|processing_error)$/,
    'StripeCardError',
  ],
  [
    /^(?:StripeConnectionError|StripeAPIConnectionError|stripe(?:\._?error)?\.APIConnectionError|Stripe::APIConnectionError|com\.stripe\.exception\.ApiConnectionException|api_connection_error)$/,
    'StripeConnectionError',
  ],
  [
    /^(?:StripeRateLimitError|stripe(?:\._?error)?\.RateLimitError|Stripe::RateLimitError|com\.stripe\.exception\.RateLimitException|rate_limit|rate_limit_error)$/,
    'StripeRateLimitError',
  ],
  [
    /^(?:StripeInvalidRequestError|stripe(?:\._?error)?\.InvalidRequestError|Stripe::InvalidRequestError|com\.stripe\.exception\.InvalidRequestException|invalid_request_error|resource_missing|parameter_missing)$/,
    'StripeInvalidRequestError',
  ],
  [
    /^(?:StripeAuthenticationError|stripe(?:\._?error)?\.AuthenticationError|Stripe::AuthenticationError|com\.stripe\.exception\.AuthenticationException|authentication_error)$/,
    'StripeAuthenticationError',
  ],
];

// A subclass one path reports beside the base class another path reports for the same failure.
const BASE_OF: Record<string, string> = {
  // .NET: HttpClient's timeout and a cancelled token
  TaskCanceledException: 'OperationCanceledException',
  // JDBC: the PostgreSQL driver's class and the interface's
  PSQLException: 'SQLException',
  // Browsers: a DOMException named AbortError (the SDK sends the name, OTLP the class)
  AbortError: 'DOMException',
  // Go: the standard library's plain and wrapped errors carry no type of their own
  '*errors.errorString': 'error',
  '*fmt.wrapError': 'error',
  '*fmt.wrapErrors': 'error',
  '*errors.joinError': 'error',
};

function codeIn(message: string): string | undefined {
  for (const m of message.slice(0, 500).matchAll(CODE_IN_MESSAGE)) {
    if (m[1] && Object.hasOwn(ERRNO, m[1])) return m[1];
    if (m[2] !== undefined && BY_NUMBER.has(Number(m[2]))) return BY_NUMBER.get(Number(m[2]));
  }
  return undefined;
}

/** The type as grouping sees it: one name for a failure's class, code, subclass and base. */
export function groupType(type: string, message: string): string {
  const full = type.trim();
  for (const [re, family] of LIBRARY_FAMILIES) if (re.test(full)) return family;
  if (Object.hasOwn(BASE_OF, full)) return BASE_OF[full];
  const name = typeName(full);
  if (Object.hasOwn(ERRNO, name)) return name;
  if (Object.hasOwn(CLASS_CODE, name)) return CLASS_CODE[name];
  if (CARRIERS.has(name)) return codeIn(message) ?? name;
  return Object.hasOwn(BASE_OF, name) ? BASE_OF[name] : name;
}
