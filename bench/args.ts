// Command-line flags of `npm run bench` (all optional). Parsed once, here.

export interface BenchArgs {
  mode: 'distributed' | 'embedded';
  /** How the log batches are sent: native JSON to /ingest/logs, or OTLP/HTTP protobuf to /v1/logs. */
  protocol: 'native' | 'otlp';
  consumerOnly: boolean;
  seconds: number;
  concurrency: number;
  batch: number;
  /** Target log requests per second; 0 = as fast as the receiver answers. */
  rate: number;
  /** Requests per second for each of errors, traces and llm, alongside the logs. */
  kindRate: number;
  /** One log request in `sampleEvery` carries a probe message whose visibility is timed. */
  sampleEvery: number;
  /** Consumers processes in the distributed mode (they share the consumer groups). */
  consumers: number;
  /** Messages written to the logs topic before the consumer-only run. */
  prefill: number;
  /** The message version of the prefill: 3, a log request as sent (what receivers write for a clean request), or 2, the JSON envelope. */
  envelope: 2 | 3;
  /** Extra environment for the spawned services, e.g. --env CONSUMER_BATCH_ROWS=50000. */
  env: Record<string, string>;
  /** Writes V8 CPU profiles of the receiver and consumers into this folder. */
  cpuProf: string | null;
  out: string;
}

export const USAGE = `npm run bench -- [flags]
  --mode distributed|embedded   what to start (default distributed: receiver, consumers, dashboard)
  --otlp                        send the log batches as OTLP/HTTP protobuf to /v1/logs (default: JSON to /ingest/logs)
  --seconds N                   load duration (default 20)
  --concurrency N               requests in flight for logs (default 16)
  --batch N                     logs per request (default 100)
  --rate N                      target log requests/s (default: unthrottled)
  --kind-rate N                 requests/s for each of errors, traces, llm (default 20)
  --sample N                    time visibility of 1 log request in N (default 20)
  --consumers N                 consumers processes, distributed mode (default 1)
  --consumer-only               prefill the logs topic, then time ONE consumers process
  --prefill N                   messages for --consumer-only (default 1000000)
  --envelope 2|3                message version of the prefill (default 3: requests as sent; 2: JSON envelopes)
  --env K=V                     extra environment for the spawned services (repeatable)
  --cpu-prof DIR                write .cpuprofile files of the spawned services into DIR
  --out FILE                    JSON results (default bench/results/latest.json)`;

export function parseArgs(argv: string[]): BenchArgs {
  const a: BenchArgs = {
    mode: 'distributed',
    protocol: 'native',
    consumerOnly: false,
    seconds: 20,
    concurrency: 16,
    batch: 100,
    rate: 0,
    kindRate: 20,
    sampleEvery: 20,
    consumers: 1,
    prefill: 1_000_000,
    envelope: 3,
    env: {},
    cpuProf: null,
    out: 'bench/results/latest.json',
  };
  const num = (flag: string, v: string | undefined, min = 0): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min) throw new Error(`${flag} needs a number >= ${min}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const next = () => argv[++i];
    switch (flag) {
      case '--mode': {
        const m = next();
        if (m !== 'distributed' && m !== 'embedded') throw new Error('--mode is distributed or embedded');
        a.mode = m;
        break;
      }
      case '--consumer-only':
        a.consumerOnly = true;
        break;
      case '--otlp':
        a.protocol = 'otlp';
        break;
      case '--seconds':
        a.seconds = num(flag, next(), 1);
        break;
      case '--concurrency':
        a.concurrency = Math.floor(num(flag, next(), 1));
        break;
      case '--batch':
        a.batch = Math.floor(num(flag, next(), 1));
        break;
      case '--rate':
        a.rate = num(flag, next(), 0);
        break;
      case '--kind-rate':
        a.kindRate = num(flag, next(), 0);
        break;
      case '--sample':
        a.sampleEvery = Math.floor(num(flag, next(), 1));
        break;
      case '--consumers':
        a.consumers = Math.floor(num(flag, next(), 1));
        break;
      case '--prefill':
        a.prefill = Math.floor(num(flag, next(), 1));
        break;
      case '--envelope': {
        const v = next();
        if (v !== '2' && v !== '3') throw new Error('--envelope is 2 or 3');
        a.envelope = v === '2' ? 2 : 3;
        break;
      }
      case '--env': {
        const kv = next() ?? '';
        const eq = kv.indexOf('=');
        if (eq < 1) throw new Error('--env takes KEY=VALUE');
        a.env[kv.slice(0, eq)] = kv.slice(eq + 1);
        break;
      }
      case '--cpu-prof':
        a.cpuProf = next() ?? null;
        break;
      case '--out':
        a.out = next() ?? a.out;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        return process.exit(0);
      default:
        throw new Error(`unknown flag ${flag}\n${USAGE}`);
    }
  }
  if (a.batch > 1000) throw new Error('--batch is at most 1000 (the receiver refuses larger batches)');
  return a;
}
