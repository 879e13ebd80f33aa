import { viaOtlp, type Issue, type Report, type Rng } from './kit.ts';

// Messages without a usable stack whose variable parts change with the machine: a path on
// Linux, macOS or Windows (a home directory or a profile, with spaces, either slash), an IPv4
// or IPv6 address with its port, a short hex id, a quoted value with escaped quotes. One team
// runs the same service on developers' laptops, CI and servers. Each issue has a look-alike
// (another sentence, another root cause) that must stay apart. Native and OTLP alike.

const user = (r: Rng) => r.pick(['ana', 'omar', 'li.wei', 'deploy']);

/** A file under the user's home folder, as each operating system writes it. */
export function homePath(r: Rng, rest: string): string {
  const u = user(r);
  const win = rest.replaceAll('/', '\\');
  return r.pick([
    `/home/${u}/${rest}`,
    `/Users/${u}/${rest}`,
    `C:\\Users\\${u}\\${win}`,
    `C:\\Users\\Ana Maria\\${win}`,
    `C:/Users/${u}/${rest}`,
    `D:\\work\\${u}\\${win}`,
  ]);
}

/** An address of either family, as runtimes print it before a port: 10.0.0.5, ::1, [::1], ::ffff:10.0.0.5. */
export function address(r: Rng, port: number, style: 'bare' | 'bracket'): string {
  const v4 = `10.0.${r.int(0, 9)}.${r.int(2, 250)}`;
  const v6 = r.pick(['::1', `fd00::${r.int(1, 99)}`, `::ffff:${v4}`, '0:0:0:0:0:0:0:1']);
  if (r.next() < 0.5) return `${v4}:${port}`;
  return style === 'bracket' ? `[${v6}]:${port}` : `${v6}:${port}`;
}

/** Half the reports through OpenTelemetry: the same type and message, the stack as sent. */
const either = (r: Rng, type: string, message: string, stack: string, native: Report): Report => (r.next() < 0.5 ? native : viaOtlp(type, message, stack || undefined));

const nodeInternal = '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)';
const pySite = (lib: string) =>
  `Traceback (most recent call last):\n  File "/usr/local/lib/python3.12/site-packages/${lib}", line 122, in run\n    return self._run(*args)\n`;
const javaLib = '\tat java.base/sun.nio.ch.Net.connect0(Native Method)\n\tat org.postgresql.core.PGStream.createSocket(PGStream.java:243)';
const rubyGem = (m: string, t: string) => `/usr/local/bundle/gems/redis-client-0.22.2/lib/redis_client.rb:101:in 'connect': ${m} (${t})`;

const node = (id: string, reports: number, varies: Issue['varies'], type: string, msg: (r: Rng) => string): Issue => ({
  id,
  platform: 'node',
  varies,
  idsInMessage: true,
  reports,
  make(r) {
    const m = msg(r);
    return either(r, type, m, `${type}: ${m}\n${nodeInternal}`, { error_message: m, stack_trace: `${type}: ${m}\n${nodeInternal}`, context: { error_type: type } });
  },
});

const python = (id: string, reports: number, varies: Issue['varies'], type: string, msg: (r: Rng) => string): Issue => ({
  id,
  platform: 'python',
  varies,
  idsInMessage: true,
  reports,
  make(r) {
    const m = msg(r);
    const stack = `${pySite('celery/app/trace.py')}${type}: ${m}`;
    return either(r, type, m, stack, { error_message: m, stack_trace: stack });
  },
});

const java = (id: string, reports: number, varies: Issue['varies'], type: string, msg: (r: Rng) => string): Issue => ({
  id,
  platform: 'java',
  varies,
  idsInMessage: true,
  reports,
  make(r) {
    const m = msg(r);
    const stack = `${type}: ${m}\n${javaLib}`;
    return either(r, type, m, stack, { error_message: m, stack_trace: stack });
  },
});

const dotnet = (id: string, reports: number, varies: Issue['varies'], type: string, msg: (r: Rng) => string): Issue => ({
  id,
  platform: 'dotnet',
  varies,
  idsInMessage: true,
  reports,
  make(r) {
    const m = msg(r);
    const stack = `${type}: ${m}\n   at Npgsql.Internal.NpgsqlConnector.Open(NpgsqlTimeout timeout, Boolean async, CancellationToken cancellationToken)\n   at System.Threading.Tasks.ValueTask.get_Result()`;
    return either(r, type, m, stack, { error_message: m, stack_trace: stack });
  },
});

// Go's errors carry no stack: the SDK sends the message and the type Go prints.
const go = (id: string, reports: number, varies: Issue['varies'], type: string, msg: (r: Rng) => string): Issue => ({
  id,
  platform: 'go',
  varies,
  idsInMessage: true,
  reports,
  make(r) {
    const m = msg(r);
    return either(r, type, m, '', { error_message: m, stack_trace: '', context: { error_type: type } });
  },
});

const ruby = (id: string, reports: number, varies: Issue['varies'], type: string, msg: (r: Rng) => string): Issue => ({
  id,
  platform: 'ruby',
  varies,
  idsInMessage: true,
  reports,
  make(r) {
    const m = msg(r);
    const stack = `${rubyGem(m, type)}\n\tfrom /usr/local/bundle/gems/redis-client-0.22.2/lib/redis_client.rb:88:in 'ensure_connected'`;
    return either(r, type, m, stack, { error_message: m, stack_trace: stack });
  },
});

const hex6 = (r: Rng) => `${r.pick(['a', '7', 'c', '3'])}${r.hex(4)}${r.pick(['f', '9', 'b', '0'])}`;

export const osAndAddressIssues: Issue[] = [
  // Paths: a home folder on Linux and macOS, a profile folder on Windows.
  node('node/config-path-os', 16, 'path', 'Error', (r) => `Config file not found: ${homePath(r, 'shop/config.json')}`),
  node('node/config-path-invalid', 10, undefined, 'Error', (r) => `Config file is not valid JSON: ${homePath(r, 'shop/config.json')}`),
  python('python/export-path-os', 14, 'path', 'ExportError', (r) => `could not write export to ${homePath(r, 'exports/orders.csv')}: disk quota exceeded`),
  python('python/export-path-denied', 9, undefined, 'ExportError', (r) => `could not write export to ${homePath(r, 'exports/orders.csv')}: permission denied`),
  java('java/upload-path-os', 14, 'path', 'java.nio.file.NoSuchFileException', (r) => homePath(r, 'uploads/avatar.png')),
  java('java/upload-path-exists', 9, undefined, 'java.nio.file.FileAlreadyExistsException', (r) => homePath(r, 'uploads/avatar.png')),
  dotnet('dotnet/templates-path-os', 14, 'path', 'Acme.Mail.TemplateFolderException', (r) => `Template folder ${homePath(r, 'mail/templates')} is empty`),
  dotnet('dotnet/templates-path-missing', 9, undefined, 'Acme.Mail.TemplateFolderException', (r) => `Template folder ${homePath(r, 'mail/templates')} does not exist`),
  go(
    'go/config-path-os',
    14,
    'path',
    '*fmt.wrapError',
    (r) => `load config ${homePath(r, '.config/shop/config.yaml')}: yaml: line 3: mapping values are not allowed in this context`,
  ),
  go(
    'go/config-path-tabs',
    9,
    undefined,
    '*fmt.wrapError',
    (r) => `load config ${homePath(r, '.config/shop/config.yaml')}: yaml: line 7: found character that cannot start any token`,
  ),
  ruby('ruby/report-path-os', 14, 'path', 'Errno::ENOENT', (r) => `No such file or directory @ rb_sysopen - ${homePath(r, 'app/tmp/report.csv')}`),
  ruby('ruby/report-path-denied', 9, undefined, 'Errno::EACCES', (r) => `Permission denied @ rb_sysopen - ${homePath(r, 'app/tmp/report.csv')}`),

  // Addresses: IPv4 and IPv6 (loopback, unique local, IPv4-mapped), with their ports.
  node('node/listen-in-use-family', 16, 'address', 'Error', (r) => `listen EADDRINUSE: address already in use ${r.next() < 0.5 ? ':::3000' : address(r, 3000, 'bare')}`),
  node('node/listen-denied-family', 10, undefined, 'Error', (r) => `listen EACCES: permission denied ${r.next() < 0.5 ? ':::80' : address(r, 80, 'bare')}`),
  python(
    'python/pg-refused-family',
    16,
    'address',
    'psycopg2.OperationalError',
    (r) =>
      `connection to server at "${r.pick(['localhost', 'db'])}" (${address(r, 0, 'bare').replace(/:0$/, '')}), port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?`,
  ),
  python(
    'python/pg-password-family',
    9,
    undefined,
    'psycopg2.OperationalError',
    (r) =>
      `connection to server at "${r.pick(['localhost', 'db'])}" (${address(r, 0, 'bare').replace(/:0$/, '')}), port 5432 failed: FATAL:  password authentication failed for user "shop"`,
  ),
  java('java/pg-refused-family', 14, 'address', 'java.net.ConnectException', (r) => `Connection refused: localhost/${address(r, 5432, 'bare')}`),
  java('java/pg-unreachable-family', 9, undefined, 'java.net.NoRouteToHostException', (r) => `No route to host: localhost/${address(r, 5432, 'bare')}`),
  dotnet('dotnet/pg-refused-family', 14, 'address', 'Npgsql.NpgsqlException', (r) => `Failed to connect to ${address(r, 5432, 'bracket')}`),
  dotnet('dotnet/pg-timeout-family', 9, undefined, 'Npgsql.NpgsqlException', (r) => `Timeout during connecting to ${address(r, 5432, 'bracket')}`),
  go('go/pgx-dial-family', 14, 'address', '*pgconn.ConnectError', (r) => {
    const a = address(r, 5432, 'bracket');
    return `failed to connect to \`user=shop database=shop\`: ${a} (localhost): dial error: dial tcp ${a}: connect: connection refused`;
  }),
  go(
    'go/pgx-password-family',
    9,
    undefined,
    '*pgconn.ConnectError',
    (r) =>
      `failed to connect to \`user=shop database=shop\`: ${address(r, 5432, 'bracket')} (localhost): server error: FATAL: password authentication failed for user "shop" (SQLSTATE 28P01)`,
  ),
  ruby('ruby/redis-refused-family', 14, 'address', 'RedisClient::CannotConnectError', (r) => `Connection refused - connect(2) for ${address(r, 6379, 'bracket')}`),
  ruby('ruby/redis-reset-family', 9, undefined, 'RedisClient::ConnectionError', (r) => `Connection reset by peer - ${address(r, 6379, 'bracket')}`),

  // Ids and values: short hex ids, quoted values with escaped quotes.
  node('node/session-hex-id', 12, 'id', 'SessionError', (r) => `Session ${hex6(r)} not found in store`),
  node('node/session-hex-expired', 8, undefined, 'SessionError', (r) => `Session ${hex6(r)} expired`),
  python('python/refund-hex-id', 12, 'id', 'ValueError', (r) => `Order ${hex6(r)} cannot be refunded twice`),
  java(
    'java/field-quoted-escaped',
    12,
    'id',
    'com.fasterxml.jackson.databind.exc.InvalidFormatException',
    (r) => `Cannot deserialize value "${r.pick(['abc', 'say \\"hi\\"', '{\\"qty\\": 0}', '12 \\"pcs\\"'])}" for field quantity`,
  ),
  dotnet('dotnet/tenant-hex-id', 12, 'id', 'Acme.Billing.TenantPlanException', (r) => `Tenant ${hex6(r)} has no active plan`),
  dotnet('dotnet/tenant-hex-suspended', 8, undefined, 'Acme.Billing.TenantPlanException', (r) => `Tenant ${hex6(r)} is suspended`),
  go('go/order-hex-id', 12, 'id', '*errors.errorString', (r) => `order ${hex6(r)}: not found`),
  ruby('ruby/record-hex-id', 12, 'id', 'ActiveRecord::RecordNotFound', (r) => `Couldn't find Order with 'id'=${hex6(r)}`),
  {
    // A script URL without its scheme, its bundle hash changing with each deploy; no stack.
    id: 'browser/script-url-hash',
    platform: 'browser',
    varies: 'id',
    idsInMessage: true,
    reports: 12,
    make(r) {
      const m = `Script ${r.pick(['cdn.shop.example.com', 'shop.example.com'])}/assets/index-${r.pick(['DiwrgTda', 'BkX9a1_2', 'CQ5fXyS9'])}.js failed to load`;
      return either(r, 'Error', m, '', { error_message: m, stack_trace: '', context: { error_type: 'Error' } });
    },
  },
];
