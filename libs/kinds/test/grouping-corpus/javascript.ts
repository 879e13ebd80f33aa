import { deploy, line, type Issue, type Rng } from './kit.ts';

// Node.js services (the devtrail SDK's reports: the stack as V8 prints it, the type in
// context.error_type) and browsers (Chrome, Firefox, Safari; bundles whose names carry a
// content hash that changes with every deploy; some minified).

const sdk = (type: string) => ({ error_type: type });
const nodeModules = (d: { root: string }) => `${d.root}/node_modules/.pnpm/fastify@5.1.0/node_modules/fastify/lib`;

export const nodeIssues: Issue[] = [
  {
    id: 'node/stripe-timeout',
    platform: 'node',
    idsInMessage: true,
    reports: 61,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `Request req_${r.base62(14)} to Stripe timed out after ${r.pick([30000, 45000, 80000])}ms (idempotency key ${r.uuid()})`;
      return {
        error_message: msg,
        stack_trace: [
          `StripeConnectionError: ${msg}`,
          `    at RequestSender._makeRequest (${d.root}/node_modules/stripe/cjs/RequestSender.js:${r.int(300, 330)}:23)`,
          '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
          `    at async chargeCard (${d.root}/dist/billing/charge.js:${line(d, 41)}:20)`,
          `    at async Checkout.complete (${d.root}/dist/routes/checkout.js:${line(d, 88)}:5)`,
          `    at async Object.handler (${nodeModules(d)}/route.js:52:7)`,
        ].join('\n'),
        context: sdk('StripeConnectionError'),
      };
    },
  },
  {
    id: 'node/get-user-undefined',
    platform: 'node',
    reports: 38,
    make(r, i) {
      const d = deploy(r, i);
      const msg = "Cannot read properties of undefined (reading 'id')";
      return {
        error_message: msg,
        stack_trace: `TypeError: ${msg}\n    at getUser (${d.root}/dist/users.js:${line(d, 42)}:13)\n    at async handleProfile (${d.root}/dist/routes/profile.js:${line(d, 17)}:18)\n    at async Object.handler (${nodeModules(d)}/route.js:52:7)`,
        context: sdk('TypeError'),
      };
    },
  },
  {
    // The same message as node/get-user-undefined, thrown by another function: another bug.
    id: 'node/get-order-undefined',
    platform: 'node',
    reports: 28,
    make(r, i) {
      const d = deploy(r, i);
      const msg = "Cannot read properties of undefined (reading 'id')";
      return {
        error_message: msg,
        stack_trace: `TypeError: ${msg}\n    at getOrder (${d.root}/dist/orders.js:${line(d, 64)}:9)\n    at async handleOrder (${d.root}/dist/routes/orders.js:${line(d, 30)}:18)\n    at async Object.handler (${nodeModules(d)}/route.js:52:7)`,
        context: sdk('TypeError'),
      };
    },
  },
  {
    // One function, two checks, two error types: two bugs.
    id: 'node/parse-amount-type',
    platform: 'node',
    reports: 15,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `Amount must be a string, got ${r.pick(['number', 'object', 'undefined'])}`;
      return {
        error_message: msg,
        stack_trace: `TypeError: ${msg}\n    at parseAmount (${d.root}/dist/money.js:${line(d, 12)}:11)\n    at Invoice.addLine (${d.root}/dist/invoices.js:${line(d, 55)}:20)`,
      };
    },
  },
  {
    id: 'node/parse-amount-range',
    platform: 'node',
    idsInMessage: true,
    reports: 15,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `Amount ${r.int(1_000_000, 9_000_000)}.${r.int(10, 99)} is out of range`;
      return {
        error_message: msg,
        stack_trace: `RangeError: ${msg}\n    at parseAmount (${d.root}/dist/money.js:${line(d, 15)}:11)\n    at Invoice.addLine (${d.root}/dist/invoices.js:${line(d, 55)}:20)`,
      };
    },
  },
  {
    // A library error from two call sites of the application's own: two bugs (see orders below).
    id: 'node/pg-refused-users',
    platform: 'node',
    idsInMessage: true,
    reports: 22,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `connect ECONNREFUSED ${r.ip()}:5432`;
      return {
        error_message: msg,
        stack_trace: `Error: ${msg}\n    at ${d.root}/node_modules/pg-pool/index.js:45:11\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at async loadUser (${d.root}/dist/db/users.js:${line(d, 9)}:16)\n    at async getUser (${d.root}/dist/users.js:${line(d, 40)}:10)`,
        context: sdk('Error'),
      };
    },
  },
  {
    id: 'node/pg-refused-orders',
    platform: 'node',
    idsInMessage: true,
    reports: 18,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `connect ECONNREFUSED ${r.ip()}:5432`;
      return {
        error_message: msg,
        stack_trace: `Error: ${msg}\n    at ${d.root}/node_modules/pg-pool/index.js:45:11\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at async loadOrders (${d.root}/dist/db/orders.js:${line(d, 21)}:16)\n    at async Promise.all (index ${r.int(0, 3)})\n    at async getDashboard (${d.root}/dist/dashboard.js:${line(d, 70)}:22)`,
        context: sdk('Error'),
      };
    },
  },
  {
    // No frame of the application's: the message, stripped of its address, is the group.
    id: 'node/redis-refused',
    platform: 'node',
    idsInMessage: true,
    reports: 20,
    make(r) {
      const msg = `connect ECONNREFUSED ${r.ip()}:${r.pick([6379, 6380])}`;
      return {
        error_message: msg,
        stack_trace: `Error: ${msg}\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:${r.pick([1555, 1595, 1607])}:16)`,
        context: sdk('Error'),
      };
    },
  },
  {
    id: 'node/webhook-json',
    platform: 'node',
    idsInMessage: true,
    reports: 19,
    make(r, i) {
      const d = deploy(r, i);
      const bad = r.pick(['not json', 'ok', `<html>${r.int(1, 99)}`, 'undefined']);
      const msg = `Unexpected token '${bad[0]}', "${bad}" is not valid JSON`;
      return {
        error_message: msg,
        stack_trace: `SyntaxError: ${msg}\n    at JSON.parse (<anonymous>)\n    at parseWebhook (${d.root}/dist/webhooks/parse.js:${line(d, 7)}:21)\n    at async receiveWebhook (${d.root}/dist/webhooks/route.js:${line(d, 33)}:17)`,
        context: sdk('SyntaxError'),
      };
    },
  },
  {
    id: 'node/inventory-promise-all',
    platform: 'node',
    idsInMessage: true,
    reports: 18,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `Inventory lookup failed for SKU-${r.int(10000, 99999)} in warehouse ${r.pick(['eu-1', 'us-2', 'ap-3'])}`;
      return {
        error_message: msg,
        stack_trace: `Error: ${msg}\n    at lookupStock (${d.root}/dist/inventory/stock.js:${line(d, 19)}:11)\n    at async Promise.all (index ${r.int(0, 9)})\n    at async reserveStock (${d.root}/dist/inventory/reserve.js:${line(d, 44)}:3)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`,
        context: sdk('Error'),
      };
    },
  },
  {
    // Reported without a stack (a log line turned into an error): the message is all there is.
    id: 'node/payment-failed-no-stack',
    platform: 'node',
    idsInMessage: true,
    reports: 25,
    make(r) {
      const msg = `Payment pi_${r.base62(24)} failed for cus_${r.base62(14)}: card_declined (${r.pick(['insufficient_funds', 'insufficient_funds', 'insufficient_funds'])})`;
      return { error_message: msg, stack_trace: msg };
    },
  },
  {
    id: 'node/job-retries-no-stack',
    platform: 'node',
    idsInMessage: true,
    reports: 15,
    make(r) {
      const msg = `Job ${r.ulid()} exceeded 5 retries (last attempt ${r.iso()}, worker ${r.ip()}:${r.int(3000, 3999)})`;
      return { error_message: msg, stack_trace: msg };
    },
  },
  {
    id: 'node/template-missing-esm',
    platform: 'node',
    idsInMessage: true,
    reports: 12,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `Template "${r.pick(['welcome', 'reset-password', 'invoice-42', 'receipt'])}" not found in ${d.root}/templates`;
      return {
        error_message: msg,
        stack_trace: `Error: ${msg}\n    at renderTemplate (file://${d.root}/dist/mail/render.js:${line(d, 27)}:11)\n    at async sendMail (file://${d.root}/dist/mail/send.js:${line(d, 12)}:16)`,
        context: sdk('Error'),
      };
    },
  },
];

const VITE = ['DiwrgTda', 'BkX9a1_2', 'CQ5fXyS9'];
const HOSTS = ['https://shop.example.com', 'https://www.shop.example.com', 'https://shop-git-main-acme.vercel.app'];

type Browser = 'chrome' | 'firefox' | 'safari';

/** One frame as each browser prints it. */
function frameIn(b: Browser, owner: string, fn: string, url: string, col: number): string {
  if (b === 'chrome') return `    at ${owner ? `${owner}.` : ''}${fn} (${url}:1:${col})`;
  return `${fn}@${url}:1:${col}`;
}

/** "reading 'x' of undefined" as each browser words it. */
function undefinedRead(b: Browser, prop: string, holder: string): string {
  if (b === 'chrome') return `Cannot read properties of undefined (reading '${prop}')`;
  if (b === 'firefox') return `can't access property "${prop}", ${holder} is undefined`;
  return `undefined is not an object (evaluating '${holder}.${prop}')`;
}

/** The stack of a browser's error: Chrome prints the type line, Firefox and Safari only frames. */
const stackIn = (b: Browser, type: string, msg: string, frames: string[]) => (b === 'chrome' ? [`${type}: ${msg}`, ...frames] : frames).join('\n');

function browserReport(r: Rng, i: number, type: string, msg: (b: Browser) => string, frames: (b: Browser, url: (p: string) => string) => string[]) {
  const b = r.pick<Browser>(['chrome', 'chrome', 'firefox', 'safari']);
  const n = i % 3;
  const host = r.pick(HOSTS);
  const dpl = r.pick(['', `?dpl=dpl_${r.base62(12)}`]);
  const url = (p: string) => `${host}${p.replace('{vite}', VITE[n]).replace('{hash}', ['8a7b6c5d4e3f2a1b', 'c03fe91b77d2a650', '1f0e2d3c4b5a6978'][n])}${dpl}`;
  const m = msg(b);
  return { error_message: m, stack_trace: stackIn(b, type, m, frames(b, url)), context: { error_type: type, browser: b } };
}

export const browserIssues: Issue[] = [
  {
    id: 'browser/cart-total',
    platform: 'browser',
    reports: 50,
    make: (r, i) =>
      browserReport(
        r,
        i,
        'TypeError',
        (b) => undefinedRead(b, 'total', 'this.cart'),
        (b, url) => [
          frameIn(b, 'CartSummary', 'render', url('/assets/index-{vite}.js'), 2045 + (i % 3)),
          frameIn(b, 'CartPage', 'onCheckout', url('/assets/index-{vite}.js'), 9120 + (i % 3)),
          frameIn(b, '', 'Ke', url('/assets/vendor-{vite}.js'), 40111),
        ],
      ),
  },
  {
    id: 'browser/profile-avatar',
    platform: 'browser',
    reports: 31,
    make: (r, i) =>
      browserReport(
        r,
        i,
        'TypeError',
        (b) => undefinedRead(b, 'avatarUrl', 'this.user'),
        (b, url) => [frameIn(b, 'ProfileCard', 'render', url('/assets/index-{vite}.js'), 3310), frameIn(b, 'ProfilePage', 'load', url('/assets/index-{vite}.js'), 7712)],
      ),
  },
  {
    // Minified: the functions are renamed with every build; where it was thrown and what it read say which bug.
    id: 'browser/minified-price',
    platform: 'browser',
    reports: 38,
    make: (r, i) =>
      browserReport(
        r,
        i,
        'TypeError',
        (b) => undefinedRead(b, 'price', r.pick(['e', 't', 'n.item'])),
        (b, url) => [
          frameIn(b, '', r.pick(['a', 'o', 'Tt']), url('/_next/static/chunks/app/product/page-{hash}.js'), 1201),
          ...(b === 'safari' ? [] : [frameIn(b, '', r.pick(['s', 'Zn']), url('/_next/static/chunks/938-{hash}.js'), 50881)]),
          frameIn(b, '', 'Ja', url('/_next/static/chunks/framework-{hash}.js'), 33102),
        ],
      ),
  },
  {
    id: 'browser/minified-items-map',
    platform: 'browser',
    reports: 22,
    make: (r, i) =>
      browserReport(
        r,
        i,
        'TypeError',
        (b) => {
          const v = r.pick(['e', 'r', 'o']);
          return b === 'safari' ? `${v}.items.map is not a function. (In '${v}.items.map(l)', '${v}.items.map' is undefined)` : `${v}.items.map is not a function`;
        },
        (b, url) => [
          frameIn(b, '', r.pick(['c', 'u']), url('/_next/static/chunks/app/cart/page-{hash}.js'), 808),
          frameIn(b, '', 'Ja', url('/_next/static/chunks/framework-{hash}.js'), 33102),
        ],
      ),
  },
  {
    // window.onerror's message says "Uncaught TypeError: …"; the SDK's says the message alone.
    id: 'browser/checkout-session-expired',
    platform: 'browser',
    idsInMessage: true,
    reports: 20,
    make(r, i) {
      const msg = `Checkout session cs_test_${r.base62(24)} expired after ${r.int(15, 60)} minutes`;
      const rep = browserReport(
        r,
        i,
        'Error',
        () => msg,
        (b, url) => [frameIn(b, 'CheckoutPage', 'poll', url('/assets/index-{vite}.js'), 999), frameIn(b, '', 'tick', url('/assets/index-{vite}.js'), 1021)],
      );
      return r.next() < 0.5 ? { ...rep, error_message: `Uncaught Error: ${msg}`, context: {} } : rep;
    },
  },
  {
    // One message from two functions: two bugs.
    id: 'browser/api-status-cart',
    platform: 'browser',
    idsInMessage: true,
    reports: 18,
    make: (r, i) =>
      browserReport(
        r,
        i,
        'Error',
        () => `Request failed with status ${r.pick([500, 502, 503])}`,
        (b, url) => [frameIn(b, 'ApiClient', 'request', url('/assets/index-{vite}.js'), 120), frameIn(b, 'CartStore', 'refresh', url('/assets/index-{vite}.js'), 4410)],
      ),
  },
  {
    id: 'browser/api-status-profile',
    platform: 'browser',
    idsInMessage: true,
    reports: 15,
    make: (r, i) =>
      browserReport(
        r,
        i,
        'Error',
        () => `Request failed with status ${r.pick([500, 502, 503])}`,
        (b, url) => [
          frameIn(b, 'ApiClient', 'request', url('/assets/index-{vite}.js'), 120),
          frameIn(b, 'ProfileStore', 'refresh', url('/assets/index-{vite}.js'), 5120),
        ],
      ),
  },
];
