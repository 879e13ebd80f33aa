import { describe, expect, it } from 'vitest';
import { errorReportSchema, errorToEvent, errorTypeOf, fingerprint, fingerprintParts, stripMessage } from '@devtrail/kinds';
import { cpuMs } from '../../../test/support/cpu-time.ts';

// The grouping rule, platform by platform, as docs/fingerprint.md states it: what counts
// (type, in-app frames; else the stripped message) and what does not (lines, columns, hosts,
// install paths, bundle hashes, dependency and runtime frames, ids in messages).

const parts = (error_message: string, stack_trace: string, context?: Record<string, unknown>) => fingerprintParts({ error_message, stack_trace, context });

describe('the stack rule', () => {
  it('Node.js: the type and the in-app frames; not node_modules, node: internals, Promise.all, lines, install paths', () => {
    const stack = (root: string, l: number) =>
      `TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser (${root}/src/users.ts:${l}:13)\n    at async Promise.all (index 3)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at async Object.handler (${root}/node_modules/fastify/lib/route.js:52:7)`;
    expect(parts('x', stack('/app', 42))).toEqual({ rule: 'stack', types: ['TypeError'], frames: ['getUser@src/users.ts'], message: '' });
    expect(fingerprint({ error_message: 'x', stack_trace: stack('/app', 42) })).toBe(fingerprint({ error_message: 'y', stack_trace: stack('C:\\build\\app', 97) }));
  });

  it('browsers: Chrome, Firefox and Safari frames of one bug agree; bundle hashes (Vite, webpack, Next.js) and hosts do not count', () => {
    const chrome = 'TypeError: x\n    at CartSummary.render (https://shop.example.com/assets/index-DiwrgTda.js:1:2045)';
    const firefox = 'render@https://cdn.example.net/assets/index-BkX9a1_2.js?v=3:1:2101';
    expect(parts('x', chrome, { error_type: 'TypeError' }).frames).toEqual(['render@assets/index-<hash>.js']);
    expect(fingerprint({ error_message: 'a', stack_trace: chrome, context: { error_type: 'TypeError' } })).toBe(
      fingerprint({ error_message: 'b', stack_trace: firefox, context: { error_type: 'TypeError' } }),
    );
    expect(parts('x', 'onPay@https://h/static/js/main.3f9c2.js:1:2').frames).toEqual(['onPay@js/main.<hash>.js']);
    expect(parts('x', 'Error: x\n    at a (https://h/_next/static/chunks/framework-8a7b6c5d4e3f2a1b.js:1:2)').rule).toBe('message');
  });

  it('minified bundles: renamed functions do not count; where it was thrown and the message (in one wording for all browsers) do', () => {
    const chrome = parts(
      "Cannot read properties of undefined (reading 'price')",
      'TypeError: x\n    at a (https://h/_next/static/chunks/app/page-8a7b6c5d4e3f2a1b.js:1:1201)\n    at Zn (https://h/_next/static/chunks/938-c03fe91b77d2a650.js:1:5)',
      { error_type: 'TypeError' },
    );
    const safari = parts("undefined is not an object (evaluating 'n.item.price')", 'Tt@https://h/_next/static/chunks/app/page-1f0e2d3c4b5a6978.js:1:1190', {
      error_type: 'TypeError',
    });
    expect(chrome).toEqual({ rule: 'message', types: ['TypeError'], frames: ['?@app/page-<hash>.js'], message: 'cannot read property price of nothing' });
    expect(safari).toEqual(chrome);
  });

  it('Python: frames read innermost last; site-packages and the standard library are not in-app; the type from the exception line', () => {
    const tb = (root: string) =>
      `Traceback (most recent call last):\n  File "${root}/venv/lib/python3.12/site-packages/django/core/handlers/base.py", line 197, in _get_response\n    response = wrapped_callback(request)\n  File "${root}/cart/forms.py", line 12, in parse_quantity\n    return int(data['qty'])\n  File "/usr/lib/python3.12/json/decoder.py", line 3, in decode\n    x\nValueError: invalid literal for int() with base 10: 'abc'`;
    expect(parts('x', tb('/srv/app'))).toEqual({ rule: 'stack', types: ['ValueError'], frames: ['parse_quantity@cart/forms.py'], message: '' });
  });

  it('Python: a multi-line message after the exception line does not hide the type (psycopg2)', () => {
    const tb =
      'Traceback (most recent call last):\n  File "/app/db.py", line 8, in connect\n    psycopg2.connect()\npsycopg2.OperationalError: connection to server at "10.0.0.5", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n';
    expect(errorTypeOf(tb, 'connection to server…')).toBe('psycopg2.OperationalError');
    expect(parts('x', tb).types).toEqual(['OperationalError']);
  });

  it('Java: classes of the JDK, frameworks and generated code are not in-app; lambdas lose their numbers; Caused by: adds its type', () => {
    const java = (n: number) =>
      `jakarta.servlet.ServletException: Request processing failed\n\tat org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1022)\n\tat jdk.internal.reflect.GeneratedMethodAccessor${n}.invoke(Unknown Source)\nCaused by: java.lang.IllegalStateException: Order ${n} already shipped\n\tat com.acme.orders.OrderService.lambda$cancel$${n % 3}(OrderService.java:${200 + n})\n\tat com.acme.orders.OrderService$$Lambda$${n}/0x0000000801${n}c00.run(Unknown Source)\n\t... 52 more`;
    expect(parts('x', java(12))).toEqual({
      rule: 'stack',
      types: ['ServletException', 'IllegalStateException'],
      frames: ['com.acme.orders.OrderService.lambda$cancel'],
      message: '',
    });
    expect(fingerprint({ error_message: 'x', stack_trace: java(12) })).toBe(fingerprint({ error_message: 'x', stack_trace: java(407) }));
  });

  it('.NET: System and Microsoft frames and lambda_methodN are not in-app; async state machines read as their method; no ":line N"', () => {
    const net = (n: number) =>
      `System.InvalidOperationException: Sequence contains no elements\n   at System.Linq.ThrowHelper.ThrowNoElementsException()\n   at Acme.Orders.OrderService.<PlaceAsync>d__${n}.MoveNext() in C:\\src\\Orders\\OrderService.cs:line ${40 + n}\n   at lambda_method${n}(Closure, Object, Object[])`;
    expect(parts('x', net(4))).toEqual({ rule: 'stack', types: ['InvalidOperationException'], frames: ['Acme.Orders.OrderService.PlaceAsync'], message: '' });
    expect(fingerprint({ error_message: 'x', stack_trace: net(4) })).toBe(fingerprint({ error_message: 'x', stack_trace: net(9) }));
  });

  it('Go: a panic is read; module-cache, vendored and standard-library frames are not in-app', () => {
    const go =
      'panic: runtime error: index out of range [5] with length 3\n\ngoroutine 7 [running]:\ngithub.com/acme/shop/internal/cart.Total(...)\n\t/app/internal/cart/total.go:12 +0x1d\ngithub.com/go-chi/chi/v5.(*Mux).routeHTTP(0xc0001)\n\t/root/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.12/mux.go:444 +0x6c4\nnet/http.HandlerFunc.ServeHTTP(0xc0)\n\t/usr/local/go/src/net/http/server.go:2166 +0x29';
    expect(parts('x', go)).toEqual({ rule: 'stack', types: ['panic'], frames: ['cart.Total@cart/total.go'], message: '' });
  });

  it("Ruby: gems and the standard library are not in-app; 3.3's `m' and 3.4's 'Class#m' are one frame; the type from \"(Type)\"", () => {
    const r33 =
      "app/models/user.rb:42:in `display_name': undefined method 'name' for nil (NoMethodError)\n\tfrom /usr/local/bundle/gems/actionview-7.1.3/lib/action_view/base.rb:244:in 'public_send'";
    const r34 = "app/models/user.rb:45:in 'User#display_name': undefined method 'name' for nil (NoMethodError)";
    expect(parts('x', r33)).toEqual({ rule: 'stack', types: ['NoMethodError'], frames: ['display_name@models/user.rb'], message: '' });
    expect(fingerprint({ error_message: 'x', stack_trace: r33 })).toBe(fingerprint({ error_message: 'x', stack_trace: r34 }));
  });

  it('one message from two places is two groups; one place with two types is two groups', () => {
    const at = (fn: string, type = 'TypeError') => ({ error_message: 'm', stack_trace: `${type}: m\n    at ${fn} (/app/src/a.ts:1:1)` });
    expect(fingerprint(at('getUser'))).not.toBe(fingerprint(at('getOrder')));
    expect(fingerprint(at('parse', 'TypeError'))).not.toBe(fingerprint(at('parse', 'RangeError')));
  });
});

describe('the message rule (no in-app frame)', () => {
  it('strips ids of every common shape, values, addresses, paths, times and quoted literals', () => {
    expect(
      stripMessage(
        "Request req_7Hq2XkLmNpQrSt for cus_NffrFeUfNV2Hib failed at 2026-06-01T10:00:00Z from 10.0.0.5:5432 (https://api.example.com/v1?id=7) user jane@example.com job 01ARZ3NDEKTSV4RRFFQ69G5FAV in /var/data/x.csv at 0x7ffe3c2a token a1b2c3d4e5f6 'abc' \"def\" can't",
      ),
    ).toBe("Request <id> for <id> failed at <time> from <ip> (<url>) user <email> job <id> in <path> at <hex> token <n> <str> <str> can't");
    expect(stripMessage("invalid literal for int() with base 10: ''")).toBe(stripMessage("invalid literal for int() with base 10: 'ten'"));
    expect(stripMessage('For input string: "1O"')).toBe('For input string: <str>');
  });

  it('groups by the type and the stripped message; "Uncaught " and a repeated type are not part of it', () => {
    const a = { error_message: 'Uncaught Error: Job 01ARZ3NDEKTSV4RRFFQ69G5FAV failed', stack_trace: 'Error: Job 01ARZ3NDEKTSV4RRFFQ69G5FAV failed' };
    const b = { error_message: 'Job 01BX5ZZKBKACTAV9WEVGEMMVRZ failed', stack_trace: 'Job 01BX5ZZKBKACTAV9WEVGEMMVRZ failed' };
    expect(fingerprintParts(a)).toEqual({ rule: 'message', types: ['Error'], frames: [], message: 'Job <id> failed' });
    expect(fingerprint(a)).toBe(fingerprint(b));
  });

  it('reads the type the sender named: OTLP exception.type, the SDK context.error_type', () => {
    expect(errorTypeOf('boom', 'boom', { 'exception.type': '*fmt.wrapError' })).toBe('*fmt.wrapError');
    expect(errorTypeOf('Error: boom', 'boom', { error_type: 'StripeConnectionError' })).toBe('StripeConnectionError');
    expect(errorTypeOf('', 'Uncaught (in promise) TypeError: x')).toBe('TypeError');
    // the SDK's typeof of a thrown string or object is not a type
    expect(errorTypeOf('boom', 'boom', { error_type: 'string' })).toBe('Error');
  });
});

describe('a fingerprint the client chooses', () => {
  const report = { error_message: 'Timeout talking to db-7', stack_trace: 'Error: Timeout\n    at query (/app/src/db.ts:1:1)' };

  it('replaces the computed one; "{{ default }}" stands for the computed one', () => {
    const chosen = fingerprint({ ...report, fingerprint: ['database-unavailable'] });
    expect(chosen).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint({ error_message: 'other', stack_trace: 'Other: x', fingerprint: ['database-unavailable'] })).toBe(chosen);
    const extended = fingerprint({ ...report, fingerprint: ['{{ default }}', 'tenant-a'] });
    expect(extended).not.toBe(fingerprint(report));
    expect(fingerprint({ ...report, stack_trace: report.stack_trace.replace(':1:1', ':9:9'), fingerprint: ['{{default}}', 'tenant-a'] })).toBe(extended);
    expect(fingerprint({ ...report, fingerprint: ['{{ default }}', 'tenant-b'] })).not.toBe(extended);
    expect(fingerprint({ ...report, fingerprint: [] })).toBe(fingerprint(report));
  });

  it('is on the wire as an array of up to 20 strings; the event keeps no previous fingerprint for it', () => {
    const now = new Date().toISOString();
    const event = errorToEvent(errorReportSchema.parse({ ...report, fingerprint: ['a', '{{ default }}'] }), now);
    expect(event.fingerprint).toBe(fingerprint({ ...report, fingerprint: ['a', '{{ default }}'] }));
    expect(event.previous_fingerprint).toBe('');
    expect(errorToEvent(errorReportSchema.parse(report), now).previous_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(errorReportSchema.safeParse({ ...report, fingerprint: new Array(21).fill('x') }).success).toBe(false);
    expect(errorReportSchema.safeParse({ ...report, fingerprint: 'x' }).success).toBe(false);
  });
});

describe('hostile input', () => {
  it('stays fast on long and pathological stacks and messages', () => {
    const ms = cpuMs(() => {
      for (const n of [1000, 100_000]) {
        fingerprint({ error_message: 'a'.repeat(n), stack_trace: '9'.repeat(n) });
        fingerprint({ error_message: "'".repeat(n), stack_trace: `${'at '.repeat(n)}\n${'x@'.repeat(n)}` });
        fingerprint({ error_message: 'aB1_'.repeat(n / 4), stack_trace: `${'\tat a.b('.repeat(n / 8)}\n${'main.f('.repeat(n / 7)}\n\t/a.go:1` });
        fingerprint({ error_message: `${'a:'.repeat(n / 2)}`, stack_trace: `${'Caused by: '.repeat(n / 11)}\n${'  File "'.repeat(n / 8)}` });
      }
    });
    // Not a timing target (docs/benchmarks.md holds those): a guard against a quadratic pattern, 100x slack, in CPU time.
    expect(ms).toBeLessThan(5000);
  });
});
