import { deploy, line, viaOtlp, type Issue, type Rng } from './kit.ts';

// One failure typed two ways, and one browser error in each browser's words.
// Types: the SDK sends a class, OpenTelemetry's JavaScript SDK the error's `code` when it has
// one (ECONNREFUSED, card_declined); a driver's subclass beside the interface's base class;
// Go's plain and wrapped errors. The in-app frames are the same, so only the type differs.
// Wordings: reports without a usable stack (Firefox and Safari give none for a failed fetch;
// a chunk fails in the bundler's runtime), in Chrome's, Firefox's, Safari's and older words.
// Each issue has a look-alike at the same place with another root cause, kept apart.

const node = (id: string, reports: number, varies: Issue['varies'], classType: string, code: string, msg: string): Issue => ({
  id,
  platform: 'node',
  varies,
  reports,
  make(r, i) {
    const d = deploy(r, i);
    const stack = `${classType}: ${msg}\n    at async loadCart (${d.root}/dist/cart/load.js:${line(d, 21)}:9)\n    at async Object.handler (${d.root}/dist/routes/cart.js:${line(d, 8)}:20)`;
    return r.next() < 0.5 ? { error_message: msg, stack_trace: stack, context: { error_type: classType } } : viaOtlp(code, msg, stack);
  },
});

const python = (id: string, reports: number, varies: Issue['varies'], native: string, otlp: string, msg: string): Issue => ({
  id,
  platform: 'python',
  varies,
  reports,
  make(r, i) {
    const l = 40 + (i % 3) * 5;
    const stack = (t: string) =>
      `Traceback (most recent call last):\n  File "/srv/app/rates/client.py", line ${l}, in fetch_rates\n    sock.connect(addr)\n  File "/usr/local/lib/python3.12/socket.py", line 800, in create_connection\n    raise err\n${t}: ${msg}`;
    return r.next() < 0.5 ? { error_message: msg, stack_trace: stack(native) } : viaOtlp(otlp, msg, stack(otlp));
  },
});

const java = (id: string, reports: number, varies: Issue['varies'], native: string, otlp: string, msg: string): Issue => ({
  id,
  platform: 'java',
  varies,
  reports,
  make(r, i) {
    const stack = (t: string) =>
      `${t}: ${msg}\n\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2713)\n\tat com.acme.orders.OrderRepository.save(OrderRepository.java:${61 + (i % 3) * 2})\n\tat com.acme.orders.OrderService.place(OrderService.java:${30 + (i % 3)})`;
    return r.next() < 0.5 ? { error_message: msg, stack_trace: stack(native) } : viaOtlp(otlp, msg, stack(otlp));
  },
});

const dotnet = (id: string, reports: number, varies: Issue['varies'], native: string, otlp: string, msg: string): Issue => ({
  id,
  platform: 'dotnet',
  varies,
  reports,
  make(r, i) {
    const stack = (t: string) =>
      `${t}: ${msg}\n   at System.Net.Http.HttpClient.HandleFailure(Exception e, Boolean telemetryStarted, HttpResponseMessage response)\n   at Acme.Pricing.PriceClient.GetAsync(String sku) in /src/Pricing/PriceClient.cs:line ${27 + (i % 3)}\n   at Acme.Pricing.QuoteService.<QuoteAsync>d__3.MoveNext() in /src/Pricing/QuoteService.cs:line 14`;
    return r.next() < 0.5 ? { error_message: msg, stack_trace: stack(native) } : viaOtlp(otlp, msg, stack(otlp));
  },
});

const go = (id: string, reports: number, varies: Issue['varies'], types: string[], msg: string): Issue => ({
  id,
  platform: 'go',
  varies,
  reports,
  make(r) {
    const t = r.pick(types);
    return r.next() < 0.5 ? { error_message: msg, stack_trace: '', context: { error_type: t } } : viaOtlp(t, msg, undefined);
  },
});

const ruby = (id: string, reports: number, varies: Issue['varies'], native: string, otlp: string, msg: string): Issue => ({
  id,
  platform: 'ruby',
  varies,
  reports,
  make(r, i) {
    const stack = (t: string) =>
      `/usr/local/bundle/gems/stripe-12.1.0/lib/stripe/stripe_client.rb:812:in 'handle_error_response': ${msg} (${t})\n\tfrom app/services/checkout.rb:${33 + (i % 3)}:in 'Checkout#charge'\n\tfrom app/controllers/orders_controller.rb:12:in 'OrdersController#create'`;
    return r.next() < 0.5 ? { error_message: msg, stack_trace: stack(native) } : viaOtlp(otlp, msg, stack(otlp));
  },
});

type Browser = 'chrome' | 'firefox' | 'safari' | 'old';

/** A browser report without a usable stack: Chrome's frames are the vendor bundle's, the others print none. */
function browser(id: string, reports: number, varies: Issue['varies'], type: (r: Rng) => string, words: (b: Browser, r: Rng) => string): Issue {
  return {
    id,
    platform: 'browser',
    varies,
    reports,
    make(r) {
      const b = r.pick<Browser>(['chrome', 'chrome', 'firefox', 'safari', 'old']);
      const m = words(b, r);
      const t = type(r);
      const stack =
        b === 'chrome' ? `${t}: ${m}\n    at window.fetch (https://shop.example.com/assets/vendor-${r.pick(['DiwrgTda', 'BkX9a1_2'])}.js:1:${r.int(100, 900)})` : '';
      // Half through OpenTelemetry's web SDK.
      if (r.next() < 0.5) return viaOtlp(t, m, stack || undefined);
      return { error_message: m, stack_trace: stack, context: { error_type: t, browser: b } };
    },
  };
}

function undefinedRead(b: Browser, r: Rng, prop: string): string {
  const v = r.pick(['e', 't', 'cart']);
  if (b === 'chrome') return `Cannot read properties of undefined (reading '${prop}')`;
  if (b === 'firefox') return `can't access property "${prop}", ${v} is undefined`;
  if (b === 'safari') return `undefined is not an object (evaluating '${v}.${prop}')`;
  return r.pick([`Cannot read property '${prop}' of undefined`, `Unable to get property '${prop}' of undefined or null reference`]);
}

const chunkUrl = (r: Rng, id: string) => `https://${r.pick(['shop.example.com', 'cdn.example.net'])}/_next/static/chunks/${id}-${r.hex(16)}.js`;

export const typeIssues: Issue[] = [
  // A class beside its code: OpenTelemetry's JavaScript SDK types an error by its `code`.
  node('node/pg-refused-code', 16, 'code', 'Error', 'ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'),
  node('node/pg-timeout-code', 10, undefined, 'Error', 'ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.5:5432'),
  node('node/stripe-declined-code', 16, 'code', 'StripeCardError', 'card_declined', 'Your card was declined.'),
  node('node/stripe-rate-code', 10, undefined, 'StripeRateLimitError', 'rate_limit', 'Too many requests made to the API too quickly'),
  ruby('ruby/stripe-declined-code', 14, 'code', 'Stripe::CardError', 'card_declined', 'Your card was declined.'),
  ruby('ruby/stripe-rate-code', 9, undefined, 'Stripe::RateLimitError', 'rate_limit', 'Too many requests made to the API too quickly'),
  python('python/refused-errno-class', 14, 'code', 'ConnectionRefusedError', 'OSError', '[Errno 111] Connection refused'),
  python('python/reset-errno-class', 9, undefined, 'ConnectionResetError', 'OSError', '[Errno 104] Connection reset by peer'),
  // A subclass beside its base class.
  java('java/deadlock-subclass', 14, 'subclass', 'org.postgresql.util.PSQLException', 'java.sql.SQLException', 'ERROR: deadlock detected'),
  java(
    'java/duplicate-key-other',
    9,
    undefined,
    'org.springframework.dao.DuplicateKeyException',
    'org.springframework.dao.DuplicateKeyException',
    'ERROR: duplicate key value',
  ),
  dotnet(
    'dotnet/price-canceled-subclass',
    14,
    'subclass',
    'System.Threading.Tasks.TaskCanceledException',
    'System.OperationCanceledException',
    'The operation was canceled.',
  ),
  dotnet('dotnet/price-timeout-other', 9, undefined, 'System.TimeoutException', 'System.TimeoutException', 'The operation has timed out.'),
  go('go/rates-deadline-wrapped', 14, 'subclass', ['*fmt.wrapError', '*errors.errorString'], 'quote rates: context deadline exceeded'),
  go('go/rates-canceled-wrapped', 9, undefined, ['*fmt.wrapError', '*errors.errorString'], 'quote rates: context canceled'),
  browser(
    'browser/search-aborted-name',
    14,
    'subclass',
    (r) => r.pick(['AbortError', 'DOMException']),
    (b) => (b === 'firefox' ? 'The operation was aborted. ' : b === 'safari' ? 'Fetch is aborted' : 'signal is aborted without reason'),
  ),
  browser(
    'browser/search-timeout-name',
    9,
    undefined,
    () => 'TimeoutError',
    () => 'signal timed out',
  ),
];

export const wordingIssues: Issue[] = [
  browser(
    'browser/fetch-failed-words',
    24,
    'wording',
    () => 'TypeError',
    (b, r) =>
      b === 'firefox'
        ? 'NetworkError when attempting to fetch resource.'
        : b === 'safari'
          ? 'Load failed'
          : r.pick(['Failed to fetch', 'Failed to fetch (api.shop.example.com)']),
  ),
  browser(
    'browser/fetch-bad-header',
    9,
    undefined,
    () => 'TypeError',
    () => "Failed to execute 'fetch' on 'Window': Invalid name",
  ),
  browser(
    'browser/items-undefined-words',
    24,
    'wording',
    () => 'TypeError',
    (b, r) => undefinedRead(b, r, 'items'),
  ),
  browser(
    'browser/total-undefined-words',
    12,
    undefined,
    () => 'TypeError',
    (b, r) => undefinedRead(b, r, 'total'),
  ),
  browser(
    'browser/chunk-load-words',
    20,
    'wording',
    () => 'ChunkLoadError',
    (_b, r) => {
      const id = r.pick(['938', '4521', 'app-product-page', 'vendors-node_modules_react-dom']);
      return `Loading chunk ${id} failed.\n(${r.pick(['error', 'missing', 'timeout'])}: ${chunkUrl(r, id)})`;
    },
  ),
  browser(
    'browser/css-chunk-load',
    10,
    undefined,
    () => 'ChunkLoadError',
    (_b, r) => {
      const id = r.pick(['12', '77']);
      return `Loading CSS chunk ${id} failed.\n(${chunkUrl(r, id).replace(/\.js$/, '.css')})`;
    },
  ),
  browser(
    'browser/dynamic-import-words',
    20,
    'wording',
    () => 'TypeError',
    (b, r) => {
      const url = `https://shop.example.com/assets/${r.pick(['Cart', 'Checkout'])}-${r.pick(['DiwrgTda', 'BkX9a1_2', 'CQ5fXyS9'])}.js`;
      if (b === 'firefox') return `error loading dynamically imported module: ${url}`;
      if (b === 'safari') return 'Importing a module script failed.';
      return `Failed to fetch dynamically imported module: ${url}`;
    },
  ),
];
