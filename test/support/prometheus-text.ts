// Reads the Prometheus text exposition devtrail serves, for tests: every sample with its labels.
// Enough of the format for what prom-client writes (no timestamps, escaped label values).

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of a metric's samples whose labels include `match`. */
export function sumOf(samples: Sample[], name: string, match: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);
}

/** GETs a service's /metrics as Prometheus does (the text exposition) and parses it. */
export async function scrape(baseUrl: string): Promise<Sample[]> {
  const r = await fetch(`${baseUrl}/metrics`, { headers: { accept: 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4,*/*;q=0.1' } });
  if (!r.ok) throw new Error(`${baseUrl}/metrics answered ${r.status}`);
  const type = r.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain')) throw new Error(`${baseUrl}/metrics: content-type ${type}`);
  return parsePrometheusText(await r.text());
}
