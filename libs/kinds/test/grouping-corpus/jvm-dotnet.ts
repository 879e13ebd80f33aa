import { viaOtlp, type Issue, type Rng } from './kit.ts';

// Java (Spring Boot: reflection accessors, proxies and lambdas whose numbers change between
// runs; "Caused by:" chains) and .NET (async state machines, lambda_methodN, ":line N",
// inner exceptions). Some reach devtrail through OpenTelemetry.

const spring = (r: Rng) =>
  [
    `\tat jdk.internal.reflect.GeneratedMethodAccessor${r.int(20, 400)}.invoke(Unknown Source)`,
    '\tat java.base/jdk.internal.reflect.DelegatingMethodAccessorImpl.invoke(DelegatingMethodAccessorImpl.java:43)',
    '\tat java.base/java.lang.reflect.Method.invoke(Method.java:568)',
    `\tat org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:${r.pick([205, 207])})`,
    '\tat org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1089)',
    '\tat org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:166)',
    '\tat java.base/java.lang.Thread.run(Thread.java:840)',
  ].join('\n');

const ln = (r: Rng, i: number, base: number) => base + (i % 3) * 4 + (r.next() < 0 ? 1 : 0);

export const javaIssues: Issue[] = [
  {
    id: 'java/quantity-format',
    platform: 'java',
    idsInMessage: true,
    reports: 28,
    make(r, i) {
      const v = r.pick(['abc', '1O', '', 'ten', '3.5']);
      const msg = `For input string: "${v}"`;
      return {
        error_message: msg,
        stack_trace: [
          `java.lang.NumberFormatException: ${msg}`,
          '\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)',
          '\tat java.base/java.lang.Integer.parseInt(Integer.java:662)',
          `\tat com.acme.cart.QuantityParser.parse(QuantityParser.java:${ln(r, i, 18)})`,
          `\tat com.acme.cart.CartController.update(CartController.java:${ln(r, i, 52)})`,
          spring(r),
        ].join('\n'),
      };
    },
  },
  {
    // The same exception without a message at two places: two bugs.
    id: 'java/npe-notifier',
    platform: 'java',
    reports: 18,
    make: (r, i) => ({
      error_message: '',
      stack_trace: [
        'java.lang.NullPointerException',
        `\tat com.acme.mail.Notifier.send(Notifier.java:${ln(r, i, 77)})`,
        `\tat com.acme.orders.OrderEvents.lambda$onShipped$${r.int(0, 2)}(OrderEvents.java:${ln(r, i, 31)})`,
        `\tat com.acme.orders.OrderEvents$$Lambda$${r.int(900, 1300)}/0x0000000801${r.hex(6)}.accept(Unknown Source)`,
        '\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)',
        spring(r),
      ].join('\n'),
    }),
  },
  {
    id: 'java/npe-invoice',
    platform: 'java',
    reports: 15,
    make: (r, i) => ({
      error_message: '',
      stack_trace: [
        'java.lang.NullPointerException',
        `\tat com.acme.billing.InvoiceService.issue(InvoiceService.java:${ln(r, i, 140)})`,
        `\tat com.acme.billing.BillingController.create(BillingController.java:${ln(r, i, 40)})`,
        spring(r),
      ].join('\n'),
    }),
  },
  {
    // A framework's wrapper around the application's exception: "Caused by:" names it.
    id: 'java/order-already-shipped',
    platform: 'java',
    idsInMessage: true,
    reports: 22,
    make(r, i) {
      const id = r.int(100000, 999999);
      const wrapper = `Request processing failed: java.lang.IllegalStateException: Order ${id} already shipped`;
      const stack = [
        `jakarta.servlet.ServletException: ${wrapper}`,
        '\tat org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1022)',
        '\tat org.springframework.web.servlet.FrameworkServlet.doPost(FrameworkServlet.java:914)',
        `Caused by: java.lang.IllegalStateException: Order ${id} already shipped`,
        `\tat com.acme.orders.OrderService.cancel(OrderService.java:${ln(r, i, 210)})`,
        `\tat com.acme.orders.OrderService$$SpringCGLIB$$0.cancel(<generated>)`,
        `\tat com.acme.orders.OrderController.cancel(OrderController.java:${ln(r, i, 66)})`,
        `\t... ${r.int(40, 60)} more`,
      ].join('\n');
      return i % 2 === 0 ? { error_message: wrapper, stack_trace: stack } : viaOtlp('jakarta.servlet.ServletException', wrapper, stack, { service: 'orders' });
    },
  },
  {
    id: 'java/stock-cache-cme',
    platform: 'java',
    reports: 15,
    make: (r, i) => ({
      error_message: '',
      stack_trace: [
        'java.util.ConcurrentModificationException',
        '\tat java.base/java.util.HashMap$HashIterator.nextNode(HashMap.java:1605)',
        `\tat com.acme.inventory.StockCache.lambda$refresh$${r.int(0, 3)}(StockCache.java:${ln(r, i, 58)})`,
        `\tat com.acme.inventory.StockCache$$Lambda$${r.int(100, 999)}/0x00000008${r.hex(8)}.run(Unknown Source)`,
        '\tat java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:572)',
        '\tat java.base/java.lang.Thread.run(Thread.java:840)',
      ].join('\n'),
    }),
  },
  {
    // One method, two failures, two types: two bugs.
    id: 'java/gateway-declined',
    platform: 'java',
    idsInMessage: true,
    reports: 18,
    make: (r, i) => ({
      error_message: `Card declined (code ${r.int(5000, 5099)})`,
      stack_trace: [
        `com.acme.payments.PaymentDeclinedException: Card declined (code ${r.int(5000, 5099)})`,
        `\tat com.acme.payments.Gateway.charge(Gateway.java:${ln(r, i, 90)})`,
        `\tat com.acme.payments.PaymentService.pay(PaymentService.java:${ln(r, i, 33)})`,
        spring(r),
      ].join('\n'),
    }),
  },
  {
    id: 'java/gateway-timeout',
    platform: 'java',
    idsInMessage: true,
    reports: 15,
    make: (r, i) => ({
      error_message: `Gateway timed out after ${r.int(5000, 30000)} ms`,
      stack_trace: [
        `com.acme.payments.GatewayTimeoutException: Gateway timed out after ${r.int(5000, 30000)} ms`,
        `\tat com.acme.payments.Gateway.charge(Gateway.java:${ln(r, i, 97)})`,
        `\tat com.acme.payments.PaymentService.pay(PaymentService.java:${ln(r, i, 33)})`,
        spring(r),
      ].join('\n'),
    }),
  },
];

const aspnet = (r: Rng) =>
  [
    `   at lambda_method${r.int(10, 400)}(Closure, Object, Object[])`,
    '   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.AwaitableObjectResultExecutor.Execute(ActionContext actionContext, IActionResultTypeMapper mapper, ObjectMethodExecutor executor, Object controller, Object[] arguments)',
    '   at Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker.<InvokeActionMethodAsync>g__Awaited|12_0(ControllerActionInvoker invoker, ValueTask`1 actionResultValueTask)',
    '   at Microsoft.AspNetCore.Routing.EndpointMiddleware.<Invoke>g__AwaitRequestTask|7_0(Endpoint endpoint, Task requestTask, ILogger logger)',
  ].join('\n');

const src = (r: Rng) => r.pick(['/src', 'C:\\agent\\_work\\12\\s', '/home/runner/work/shop/shop']);

export const dotnetIssues: Issue[] = [
  {
    id: 'dotnet/sequence-empty',
    platform: 'dotnet',
    reports: 25,
    make(r, i) {
      const s = src(r);
      const stack = [
        'System.InvalidOperationException: Sequence contains no elements',
        '   at System.Linq.ThrowHelper.ThrowNoElementsException()',
        '   at System.Linq.Enumerable.First[TSource](IEnumerable`1 source)',
        `   at Acme.Orders.OrderService.<PlaceAsync>d__${r.int(3, 9)}.MoveNext() in ${s}/Orders/OrderService.cs:line ${42 + (i % 3) * 5}`,
        '--- End of stack trace from previous location ---',
        `   at Acme.Web.Controllers.OrdersController.Post(OrderDto dto) in ${s}/Web/Controllers/OrdersController.cs:line ${17 + (i % 3)}`,
        aspnet(r),
      ].join('\n');
      return i % 2 === 0
        ? { error_message: 'Sequence contains no elements', stack_trace: stack }
        : viaOtlp('System.InvalidOperationException', 'Sequence contains no elements', stack);
    },
  },
  {
    id: 'dotnet/nullref-shipping',
    platform: 'dotnet',
    reports: 18,
    make: (r, i) => ({
      error_message: 'Object reference not set to an instance of an object.',
      stack_trace: [
        'System.NullReferenceException: Object reference not set to an instance of an object.',
        `   at Acme.Shipping.LabelPrinter.Print(Shipment shipment) in ${src(r)}/Shipping/LabelPrinter.cs:line ${88 + (i % 3) * 3}`,
        `   at Acme.Shipping.ShippingService.<>c__DisplayClass4_0.<Dispatch>b__0(Shipment s) in ${src(r)}/Shipping/ShippingService.cs:line ${51 + (i % 3)}`,
        aspnet(r),
      ].join('\n'),
    }),
  },
  {
    id: 'dotnet/nullref-invoice',
    platform: 'dotnet',
    reports: 15,
    make: (r, i) => ({
      error_message: 'Object reference not set to an instance of an object.',
      stack_trace: [
        'System.NullReferenceException: Object reference not set to an instance of an object.',
        `   at Acme.Billing.InvoiceRenderer.Render(Invoice invoice) in ${src(r)}/Billing/InvoiceRenderer.cs:line ${30 + (i % 3) * 2}`,
        aspnet(r),
      ].join('\n'),
    }),
  },
  {
    id: 'dotnet/price-client-refused',
    platform: 'dotnet',
    idsInMessage: true,
    reports: 18,
    make(r, i) {
      const host = `${r.pick(['catalog', 'catalog-2'])}.internal:${r.int(8080, 8090)}`;
      return {
        error_message: `Connection refused (${host})`,
        stack_trace: [
          `System.Net.Http.HttpRequestException: Connection refused (${host})`,
          ' ---> System.Net.Sockets.SocketException (111): Connection refused',
          '   at System.Net.Sockets.Socket.AwaitableSocketAsyncEventArgs.ThrowException(SocketError error, CancellationToken cancellationToken)',
          '   at System.Net.Http.HttpConnectionPool.ConnectToTcpHostAsync(String host, Int32 port, HttpRequestMessage initialRequest, Boolean async, CancellationToken cancellationToken)',
          '   --- End of inner exception stack trace ---',
          '   at System.Net.Http.HttpConnectionPool.ConnectToTcpHostAsync(String host, Int32 port, HttpRequestMessage initialRequest, Boolean async, CancellationToken cancellationToken)',
          `   at Acme.Catalog.PriceClient.GetAsync(String sku) in ${src(r)}/Catalog/PriceClient.cs:line ${25 + (i % 3)}`,
          aspnet(r),
        ].join('\n'),
      };
    },
  },
  {
    id: 'dotnet/quantity-format',
    platform: 'dotnet',
    idsInMessage: true,
    reports: 15,
    make(r, i) {
      const msg = `The input string '${r.pick(['abc', 'ten', '1O', ''])}' was not in a correct format.`;
      return {
        error_message: msg,
        stack_trace: [
          `System.FormatException: ${msg}`,
          '   at System.Number.ThrowFormatException[TChar](ReadOnlySpan`1 value)',
          '   at System.Int32.Parse(String s)',
          `   at Acme.Cart.QuantityParser.Parse(String raw) in ${src(r)}/Cart/QuantityParser.cs:line ${14 + (i % 3)}`,
          aspnet(r),
        ].join('\n'),
      };
    },
  },
];
