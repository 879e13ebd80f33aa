// Reading what a service process wrote: every line of its stdout and stderr is meant to be one
// JSON object with a numeric pino level.

export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** The lines that are not a JSON object with a numeric `level`, with their line number (1-based); none when all are. */
export function nonJsonLines(text: string): Array<{ line: number; text: string }> {
  const bad: Array<{ line: number; text: string }> = [];
  const lines = text.split('\n');
  // A complete output ends with a newline: the empty string after it is not a line.
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((l, i) => {
    try {
      const v = JSON.parse(l);
      if (v !== null && typeof v === 'object' && typeof v.level === 'number') return;
    } catch {
      /* not JSON */
    }
    bad.push({ line: i + 1, text: l.slice(0, 300) });
  });
  return bad;
}

/** The JSON lines of an output (others skipped). */
export function logLines(text: string): LogLine[] {
  const out: LogLine[] = [];
  for (const l of text.split('\n')) {
    if (!l.startsWith('{')) continue;
    try {
      out.push(JSON.parse(l));
    } catch {
      /* not JSON: nonJsonLines reports those */
    }
  }
  return out;
}

/** What the embedded process logs once it runs (services/embedded/src/welcome.ts), when its stdout is not a terminal: no secret, only where they are. */
export interface Welcome {
  url: string;
  data_dir: string;
  operator_token_file: string;
  setup_code_file?: string;
  project?: { id: string; name: string };
}

export function welcomeOf(text: string): Welcome | undefined {
  return logLines(text).find((l) => l.msg?.startsWith('devtrail is running')) as unknown as Welcome | undefined;
}

/** Every line of these processes' stdout and stderr that is not JSON with a level, by process and stream; {} when all are. */
export function nonJsonOutput(procs: Array<{ name: string; stdout(): string; stderr(): string }>): Record<string, Array<{ line: number; text: string }>> {
  const out: Record<string, Array<{ line: number; text: string }>> = {};
  procs.forEach((p, i) => {
    for (const stream of ['stdout', 'stderr'] as const) {
      const bad = nonJsonLines(p[stream]());
      if (bad.length > 0) out[`${p.name}#${i} ${stream}`] = bad;
    }
  });
  return out;
}

/** The reachability lines a process logged for one backend ("kafka unreachable", "kafka reachable again", ...), in order. */
export function reachabilityLines(stdout: string, backend: string): string[] {
  return logLines(stdout)
    .filter((l) => l.backend === backend)
    .map((l) => l.msg ?? '');
}

/** "receiver: 120 lines (debug 100, info 3, warn 17); warn and above: 'kafka unreachable' x1, ...", for a test's summary. */
export function levelSummary(procs: Array<{ name: string; stdout(): string }>): string {
  const names: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
  const tally = (keys: string[]) => {
    const by = new Map<string, number>();
    for (const k of keys) by.set(k, (by.get(k) ?? 0) + 1);
    return [...by].map(([k, v]) => `${k} ${v}`).join(', ');
  };
  return procs
    .map((p) => {
      const lines = logLines(p.stdout());
      const loud = lines.filter((l) => l.level >= 40).map((l) => `'${l.msg}' x`);
      return `${p.name}: ${lines.length} lines (${tally(lines.map((l) => names[l.level] ?? String(l.level)))})${loud.length ? `; warn and above: ${tally(loud)}` : ''}`;
    })
    .join(' | ');
}

/**
 * A dependency's state-change lines as they must be: "<backend> unreachable" and
 * "<backend> reachable again" alternating, ending reachable, one pair per outage, or a few
 * more when the dependency flapped while it came back (each a real change, logged once);
 * never a line per failed request. Returns what differs, for toEqual([]).
 */
export function stateChangeProblems(lines: string[], backend: string, outages: number): string[] {
  const pairs = Math.ceil(lines.length / 2);
  const expected = Array(pairs)
    .fill([`${backend} unreachable`, `${backend} reachable again`])
    .flat();
  const problems: string[] = [];
  if (JSON.stringify(lines) !== JSON.stringify(expected)) problems.push(`not alternating, ending reachable: ${JSON.stringify(lines)}`);
  if (pairs < outages || pairs > 3 * outages) problems.push(`${pairs} outages logged for ${outages}`);
  return problems;
}
