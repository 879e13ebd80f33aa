import { viaOtlp, type Issue, type Rng } from './kit.ts';

// Go (panics as the runtime prints them, built with and without -trimpath; errors without a
// stack through OpenTelemetry, typed as Go prints them) and Ruby (Rails; Ruby 3.3's
// backtick frames and 3.4's quoted ones).

const goroutine = (r: Rng) => `goroutine ${r.int(1, 9000)} [running]:`;
const gomod = (r: Rng) => r.pick(['/root/go/pkg/mod', '/home/app/go/pkg/mod']);
const goroot = (r: Rng) => r.pick(['/usr/local/go/src', '/usr/lib/go-1.22/src']);

function goTail(r: Rng): string[] {
  return [
    `github.com/go-chi/chi/v5.(*Mux).routeHTTP(0xc0001${r.hex(5)}, {0x${r.hex(6)}, 0xc000${r.hex(6)}}, 0xc000${r.hex(6)})`,
    `\t${gomod(r)}/github.com/go-chi/chi/v5@v5.0.12/mux.go:444 +0x${r.hex(3)}`,
    `net/http.HandlerFunc.ServeHTTP(0xc000${r.hex(6)}, {0x${r.hex(6)}, 0xc000${r.hex(6)}}, 0xc000${r.hex(6)})`,
    `\t${goroot(r)}/net/http/server.go:2166 +0x29`,
    'created by net/http.(*Server).Serve in goroutine 1',
    `\t${goroot(r)}/net/http/server.go:3285 +0x4b4`,
  ];
}

const nilDeref = (r: Rng) =>
  `panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x${r.hex(2)} pc=0x${r.hex(6)}]`;

export const goIssues: Issue[] = [
  {
    // One panic message at two places: two bugs.
    id: 'go/nil-orders',
    platform: 'go',
    idsInMessage: true,
    reports: 20,
    make(r, i) {
      const root = r.pick(['/app', '/build/shop']);
      return {
        error_message: 'runtime error: invalid memory address or nil pointer dereference',
        stack_trace: [
          nilDeref(r),
          '',
          goroutine(r),
          `github.com/acme/shop/internal/orders.(*Service).Get(0x0, {0x${r.hex(6)}, 0xc000${r.hex(6)}}, {0xc000${r.hex(6)}, 0x24})`,
          `\t${root}/internal/orders/service.go:${48 + (i % 3) * 3} +0x${r.hex(2)}`,
          `github.com/acme/shop/internal/api.(*Handler).getOrder(0xc000${r.hex(6)}, {0x${r.hex(6)}, 0xc000${r.hex(6)}}, 0xc000${r.hex(6)})`,
          `\t${root}/internal/api/orders.go:${31 + (i % 3)} +0x${r.hex(2)}`,
          ...goTail(r),
        ].join('\n'),
      };
    },
  },
  {
    id: 'go/nil-users',
    platform: 'go',
    idsInMessage: true,
    reports: 18,
    make(r, i) {
      return {
        error_message: 'runtime error: invalid memory address or nil pointer dereference',
        stack_trace: [
          nilDeref(r),
          '',
          goroutine(r),
          `github.com/acme/shop/internal/users.(*Store).Find(0x0, {0xc000${r.hex(6)}, 0x10})`,
          `\tgithub.com/acme/shop/internal/users/store.go:${72 + (i % 3) * 2} +0x${r.hex(2)}`,
          `github.com/acme/shop/internal/api.(*Handler).getUser(0xc000${r.hex(6)}, {0x${r.hex(6)}, 0xc000${r.hex(6)}}, 0xc000${r.hex(6)})`,
          `\tgithub.com/acme/shop/internal/api/users.go:${20 + (i % 3)} +0x${r.hex(2)}`,
          `github.com/go-chi/chi/v5.(*Mux).routeHTTP(0xc0001${r.hex(5)}, {0x${r.hex(6)}, 0xc000${r.hex(6)}}, 0xc000${r.hex(6)})`,
          '\tgithub.com/go-chi/chi/v5@v5.0.12/mux.go:444 +0x6c4',
          `net/http.HandlerFunc.ServeHTTP(0xc000${r.hex(6)}, {0x${r.hex(6)}, 0xc000${r.hex(6)}}, 0xc000${r.hex(6)})`,
          '\tnet/http/server.go:2166 +0x29',
        ].join('\n'),
      };
    },
  },
  {
    id: 'go/cart-index',
    platform: 'go',
    idsInMessage: true,
    reports: 15,
    make(r, i) {
      const n = r.int(0, 5);
      return {
        error_message: `runtime error: index out of range [${n + 1}] with length ${n}`,
        stack_trace: [
          `panic: runtime error: index out of range [${n + 1}] with length ${n}`,
          '',
          goroutine(r),
          `main.cartTotal(...)`,
          `\t/app/cmd/shop/cart.go:${12 + (i % 3)}`,
          `main.handleCart.func${r.pick([1, 1, 2])}({0x${r.hex(6)}, 0xc000${r.hex(6)}}, 0xc000${r.hex(6)})`,
          `\t/app/cmd/shop/cart.go:${40 + (i % 3)} +0x${r.hex(2)}`,
          ...goTail(r),
        ].join('\n'),
      };
    },
  },
  {
    id: 'go/order-no-rows-otlp',
    platform: 'go',
    idsInMessage: true,
    reports: 20,
    make: (r) => viaOtlp('*fmt.wrapError', `get order ${r.int(1, 999999)}: sql: no rows in result set`, undefined),
  },
  {
    id: 'go/redis-dial-otlp',
    platform: 'go',
    idsInMessage: true,
    reports: 15,
    make: (r) => viaOtlp('*net.OpError', `dial tcp ${r.ip()}:6379: connect: connection refused`, undefined),
  },
];

const gems = (r: Rng) => r.pick(['/usr/local/bundle/gems', '/app/vendor/bundle/ruby/3.3.0/gems']);
/** Ruby 3.3 prints `name', 3.4 prints 'Class#name'. */
const rubyFrame = (r: Rng, file: string, n: number, m: string, owner: string) => (r.next() < 0.5 ? `${file}:${n}:in \`${m}'` : `${file}:${n}:in '${owner}#${m}'`);

export const rubyIssues: Issue[] = [
  {
    id: 'ruby/nil-display-name',
    platform: 'ruby',
    reports: 18,
    make(r, i) {
      const msg = "undefined method 'name' for nil";
      const top = rubyFrame(r, 'app/models/user.rb', 42 + (i % 3), 'display_name', 'User');
      return {
        error_message: msg,
        stack_trace: [
          `${top}: ${msg} (NoMethodError)`,
          `\tfrom ${rubyFrame(r, 'app/views/users/show.html.erb', 7, '_app_views_users_show_html_erb', 'ActionView::Base')}`,
          `\tfrom ${gems(r)}/actionview-7.1.3/lib/action_view/base.rb:244:in 'public_send'`,
        ].join('\n'),
      };
    },
  },
  {
    id: 'ruby/nil-customer-name',
    platform: 'ruby',
    reports: 15,
    make(r, i) {
      const msg = "undefined method 'name' for nil";
      const top = rubyFrame(r, 'app/models/order.rb', 88 + (i % 3), 'customer_name', 'Order');
      return {
        error_message: msg,
        stack_trace: [
          `${top}: ${msg} (NoMethodError)`,
          `\tfrom ${rubyFrame(r, 'app/mailers/order_mailer.rb', 12, 'shipped', 'OrderMailer')}`,
          `\tfrom ${gems(r)}/actionmailer-7.1.3/lib/action_mailer/base.rb:636:in 'process'`,
        ].join('\n'),
      };
    },
  },
  {
    id: 'ruby/user-not-found',
    platform: 'ruby',
    idsInMessage: true,
    reports: 20,
    make(r, i) {
      const msg = `Couldn't find User with 'id'=${r.int(1, 99999)}`;
      return {
        error_message: msg,
        stack_trace: [
          `${gems(r)}/activerecord-7.1.3/lib/active_record/core.rb:253:in 'find': ${msg} (ActiveRecord::RecordNotFound)`,
          `\tfrom ${rubyFrame(r, 'app/controllers/users_controller.rb', 9 + (i % 3), 'show', 'UsersController')}`,
          `\tfrom ${gems(r)}/actionpack-7.1.3/lib/action_controller/metal/basic_implicit_render.rb:6:in 'send_action'`,
        ].join('\n'),
      };
    },
  },
  {
    id: 'ruby/partner-timeout',
    platform: 'ruby',
    idsInMessage: true,
    reports: 12,
    make(r, i) {
      const msg = `Net::ReadTimeout with #<TCPSocket:(closed)> after ${r.int(10, 60)}s`;
      return {
        error_message: msg,
        stack_trace: [
          `/usr/local/lib/ruby/3.3.0/net/protocol.rb:229:in 'rbuf_fill': ${msg} (Net::ReadTimeout)`,
          `\tfrom ${rubyFrame(r, 'app/clients/partner_client.rb', 31 + (i % 3), 'fetch', 'PartnerClient')}`,
          `\tfrom ${rubyFrame(r, 'app/jobs/partner_sync_job.rb', 8, 'perform', 'PartnerSyncJob')}`,
        ].join('\n'),
      };
    },
  },
];
