import { deploy, line, viaOtlp, type Deploy, type Issue, type Rng } from './kit.ts';

// Python services (Django, Flask, FastAPI): tracebacks as `traceback.format_exc()` prints
// them, from a virtualenv or the system's site-packages; some through OpenTelemetry
// (exception.type is the class's name, the stack is the same traceback).

const site = (r: Rng) => r.pick(['/srv/app/venv/lib/python3.12/site-packages', '/usr/local/lib/python3.11/site-packages', '/opt/venv/lib/python3.12/site-packages']);

interface PyFrame {
  file: string;
  line: number;
  fn: string;
  code: string;
}

const own = (d: Deploy, file: string, base: number, fn: string, code: string): PyFrame => ({ file: `${d.root}/${file}`, line: line(d, base), fn, code });
const lib = (r: Rng, file: string, n: number, fn: string, code: string): PyFrame => ({ file: `${site(r)}/${file}`, line: n, fn, code });

function traceback(frames: PyFrame[], last: string): string {
  return ['Traceback (most recent call last):', ...frames.flatMap((f) => [`  File "${f.file}", line ${f.line}, in ${f.fn}`, `    ${f.code}`]), last].join('\n');
}

const django = (r: Rng) => [
  lib(r, 'django/core/handlers/exception.py', 55, 'inner', 'response = get_response(request)'),
  lib(r, 'django/core/handlers/base.py', 197, '_get_response', 'response = wrapped_callback(request, *callback_args, **callback_kwargs)'),
];

export const pythonIssues: Issue[] = [
  {
    // One line of code, four inputs: one group (the issue's ValueError).
    id: 'python/int-literal',
    platform: 'python',
    idsInMessage: true,
    reports: 35,
    make(r, i) {
      const d = deploy(r, i);
      const v = r.pick(["''", "'abc'", "'1O'", "'ten'"]);
      const msg = `invalid literal for int() with base 10: ${v}`;
      return {
        error_message: msg,
        stack_trace: traceback(
          [
            ...django(r),
            own(d, 'cart/views.py', 40, 'update_cart', 'qty = parse_quantity(request.POST)'),
            own(d, 'cart/forms.py', 12, 'parse_quantity', "return int(data['qty'])"),
          ],
          `ValueError: ${msg}`,
        ),
      };
    },
  },
  {
    id: 'python/session-keyerror',
    platform: 'python',
    idsInMessage: true,
    reports: 25,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `'user_${r.int(1, 99999)}'`;
      return {
        error_message: msg,
        stack_trace: traceback(
          [
            ...django(r),
            own(d, 'auth/middleware.py', 22, '__call__', 'request.session_user = load_session(request)'),
            own(d, 'auth/session.py', 31, 'load_session', 'return SESSIONS[key]'),
          ],
          `KeyError: ${msg}`,
        ),
      };
    },
  },
  {
    // Native reports and OpenTelemetry exception events of one error: one group.
    id: 'python/psycopg-operational',
    platform: 'python',
    idsInMessage: true,
    reports: 30,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `connection to server at "${r.ip()}", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n`;
      const tb = traceback(
        [
          own(d, 'app/api/orders.py', 18, 'list_orders', 'with get_connection() as conn:'),
          own(d, 'app/db.py', 8, 'get_connection', 'return psycopg2.connect(DSN)'),
          lib(r, 'psycopg2/__init__.py', 122, 'connect', 'conn = _connect(dsn, connection_factory=connection_factory, **kwasync)'),
        ],
        `psycopg2.OperationalError: ${msg}`,
      );
      return i % 2 === 0 ? { error_message: msg, stack_trace: tb } : viaOtlp('OperationalError', msg, tb);
    },
  },
  {
    id: 'python/pydantic-order',
    platform: 'python',
    idsInMessage: true,
    reports: 20,
    make(r, i) {
      const d = deploy(r, i);
      const v = r.pick(['abc', 'ten', '1.5', '']);
      const msg = `1 validation error for OrderIn\nquantity\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='${v}', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.${r.int(5, 9)}/v/int_parsing`;
      return {
        error_message: msg,
        stack_trace: traceback(
          [
            lib(r, 'fastapi/routing.py', 301, 'app', 'raw_response = await run_endpoint_function('),
            own(d, 'api/orders.py', 57, 'create_order', 'order = OrderIn(**payload)'),
            lib(r, 'pydantic/main.py', 212, '__init__', 'validated_self = self.__pydantic_validator__.validate_python(data, self_instance=self)'),
          ],
          `pydantic_core._pydantic_core.ValidationError: ${msg}`,
        ),
      };
    },
  },
  {
    // A chained exception: the cause's traceback first, then the one raised while handling it.
    id: 'python/price-chained',
    platform: 'python',
    idsInMessage: true,
    reports: 18,
    make(r, i) {
      const d = deploy(r, i);
      const sku = `SKU-${r.int(10000, 99999)}`;
      const first = traceback([own(d, 'pricing/catalog.py', 14, 'lookup_price', 'return PRICES[sku]')], `KeyError: '${sku}'`);
      const second = traceback(
        [
          own(d, 'pricing/quote.py', 30, 'quote', 'price = lookup_price(sku)'),
          own(d, 'pricing/quote.py', 33, 'quote', 'raise PricingError(f"no price for {sku}") from None'),
        ],
        `pricing.errors.PricingError: no price for ${sku}`,
      );
      return { error_message: `no price for ${sku}`, stack_trace: `${first}\n\nDuring handling of the above exception, another exception occurred:\n\n${second}` };
    },
  },
  {
    // One message from two functions: two bugs.
    id: 'python/zero-division-ratings',
    platform: 'python',
    reports: 15,
    make(r, i) {
      const d = deploy(r, i);
      return {
        error_message: 'division by zero',
        stack_trace: traceback(
          [
            own(d, 'reviews/views.py', 20, 'product_reviews', 'stats = average_rating(reviews)'),
            own(d, 'reviews/stats.py', 9, 'average_rating', 'return sum(r.stars for r in reviews) / len(reviews)'),
          ],
          'ZeroDivisionError: division by zero',
        ),
      };
    },
  },
  {
    id: 'python/zero-division-funnel',
    platform: 'python',
    reports: 12,
    make(r, i) {
      const d = deploy(r, i);
      return {
        error_message: 'division by zero',
        stack_trace: traceback(
          [
            own(d, 'analytics/views.py', 44, 'funnel_report', 'rate = conversion_rate(visits, orders)'),
            own(d, 'analytics/funnel.py', 16, 'conversion_rate', 'return orders / visits'),
          ],
          'ZeroDivisionError: division by zero',
        ),
      };
    },
  },
  {
    // Many library frames where it was raised, one frame of the application's far below.
    id: 'python/partner-timeout',
    platform: 'python',
    idsInMessage: true,
    reports: 22,
    make(r, i) {
      const d = deploy(r, i);
      const msg = `HTTPSConnectionPool(host='api.partner${r.int(1, 3)}.example.com', port=443): Read timed out. (read timeout=${r.pick([10, 30])})`;
      return {
        error_message: msg,
        stack_trace: traceback(
          [
            lib(r, 'celery/app/trace.py', 453, 'trace_task', 'R = retval = fun(*args, **kwargs)'),
            own(d, 'jobs/partner_sync.py', 61, 'sync_partner', 'resp = session.get(url, timeout=TIMEOUT)'),
            lib(r, 'requests/sessions.py', 602, 'get', 'return self.request("GET", url, **kwargs)'),
            lib(r, 'requests/sessions.py', 589, 'request', 'resp = self.send(prep, **send_kwargs)'),
            lib(r, 'requests/sessions.py', 703, 'send', 'r = adapter.send(request, **kwargs)'),
            lib(r, 'requests/adapters.py', 713, 'send', 'raise ReadTimeout(e, request=request)'),
          ],
          `requests.exceptions.ReadTimeout: ${msg}`,
        ),
      };
    },
  },
  {
    // OpenTelemetry without a stack: the type and the stripped message.
    id: 'python/task-timeout-otlp',
    platform: 'python',
    idsInMessage: true,
    reports: 18,
    make: (r) =>
      viaOtlp('TimeoutError', `Task ${r.uuid()} timed out after ${r.int(30, 300)}s on worker ${r.pick(['w1', 'w2', 'w3'])}.internal:${r.int(8000, 8100)}`, undefined),
  },
];
