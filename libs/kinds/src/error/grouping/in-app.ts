// Which frames are the application's own code (docs/fingerprint.md, "In-app frames"): a frame
// of a dependency or of the runtime says where the error passed, not which bug it is, and
// varies with versions and timing (a framework's middleware, an async scheduler's ticks).
// One rule per platform, on what the frame shows: its file for JavaScript, Python, Ruby and
// Go; its qualified name for Java and .NET, whose frames name classes, not files.

export type Platform = 'javascript' | 'python' | 'java' | 'dotnet' | 'go' | 'ruby';

const JS_OUT = [
  /node_modules\//,
  /^(?:node|internal|bun|deno):/,
  /^internal\//,
  /^(?:<anonymous>|anonymous|native|\[native code\]|)$/,
  /^index \d+$/, // Promise.all (index 0)
  /^(?:chrome|moz|safari(?:-web)?)-extension:/,
  /webpack\/(?:bootstrap|runtime)/,
  // the vendor bundles of bundlers and frameworks: React's "framework-…", "vendors~main", "chunk-vendors"
  /(?:^|\/)(?:framework|vendors?|chunk-vendors|polyfills|webpack-runtime|webpack)(?:[-.~][^/]*)?\.js$/,
];

const PY_OUT = [/[/\\](?:site|dist)-packages[/\\]/, /^<(?:frozen|string|stdin)/, /[/\\]lib(?:64)?[/\\]python\d(?:\.\d+)?[/\\]/, /[/\\]Lib[/\\]/];

// Java: the JDK and the libraries nearly every service runs on; and generated code
// (reflection accessors, proxies, lambdas' synthetic classes), which moves between runs.
const JAVA_OUT =
  /^(?:java|javax|jakarta|jdk|sun|com\.sun|kotlin|kotlinx|scala|groovy|clojure|org\.springframework|org\.apache|org\.hibernate|org\.eclipse|org\.glassfish|org\.jboss|org\.postgresql|org\.junit|org\.slf4j|org\.aspectj|io\.netty|io\.undertow|io\.micrometer|io\.grpc|io\.quarkus|io\.micronaut|io\.vertx|io\.reactivex|reactor|com\.fasterxml|com\.google|com\.zaxxer|com\.mysql|okhttp3|retrofit2|ch\.qos|akka|play|feign)\./;
const JAVA_GENERATED = /GeneratedMethodAccessor|GeneratedConstructorAccessor|\$\$Lambda|\$Proxy|^jdk\.proxy|CGLIB|\$\$EnhancerBy|\$\$FastClassBy/;

const DOTNET_OUT =
  /^(?:System|Microsoft|Npgsql|Newtonsoft|Dapper|Polly|Grpc|StackExchange|Serilog|MediatR|AutoMapper|Castle|Xunit|NUnit|FluentValidation|Swashbuckle|Hangfire|MassTransit|Confluent|Azure|Amazon|Google)\.|^lambda_method|^\(wrapper/;

const GO_DEPENDENCY = /\/pkg\/mod\/|@v\d|(?:^|\/)vendor\//;
const GOROOT = /\/go(?:-[\d.]+)?\/src\/|\/go\/[\d.]+\/[^/]+\/src\//;

const RUBY_OUT = /\/gems\/|\/rubygems|<internal:|\/lib\/ruby\/|vendor\/bundle|\/ruby\/\d/;

function goInApp(fn: string, file: string): boolean {
  if (GO_DEPENDENCY.test(file)) return false;
  if (fn === 'panic' || fn.startsWith('runtime.') || GOROOT.test(file)) return false;
  // Built with -trimpath the standard library's files are relative ("net/http/server.go"),
  // and its packages' paths have no dot in their first element.
  const pkg = fn.split('/')[0];
  return !(!file.startsWith('/') && !pkg.includes('.') && !pkg.startsWith('main.'));
}

/** Whether a frame is the application's own code. `fn` is the frame's function (Java, .NET, Go: qualified), `file` its file as printed. */
export function inApp(platform: Platform, fn: string, file: string): boolean {
  switch (platform) {
    case 'javascript':
      return !JS_OUT.some((re) => re.test(file.trim().replace(/[?#].*$/, '')));
    case 'python':
      return !PY_OUT.some((re) => re.test(file));
    case 'java':
      return !JAVA_OUT.test(fn) && !JAVA_GENERATED.test(fn);
    case 'dotnet':
      return !DOTNET_OUT.test(fn);
    case 'go':
      return goInApp(fn, file);
    case 'ruby':
      return !RUBY_OUT.test(file);
  }
}
