import { readFileSync } from 'node:fs';

// `npx tsx bench/profile-summary.ts file.cpuprofile [top]`: where the time goes in a V8
// CPU profile (as written by --cpu-prof): self time by package/file and by function.

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(1);
}
const top = Number(topArg ?? 30);
const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const totalUs = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const m = /\/(libs|services|bench|test)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url;
};

const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
// Functions are named with their file inside the package (kafkajs/src/protocol/encoder.js).
const inPackage = (url: string) => {
  const nm = url.lastIndexOf('node_modules/');
  return nm >= 0 ? url.slice(nm + 13) : where(url);
};
const byPkg = new Map<string, number>();
const byFn = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const f = n.callFrame;
  const special = idle.has(f.functionName) ? f.functionName : null;
  add(byPkg, special ?? where(f.url), us);
  add(byFn, special ?? `${f.functionName || '(anonymous)'}  ${inPackage(f.url)}:${f.lineNumber + 1}`, us);
}
const pct = (us: number) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
const wall = (prof.endTime - prof.startTime) / 1e6;
const busy = totalUs - (byPkg.get('(idle)') ?? 0);
console.log(`${file}: ${wall.toFixed(1)} s profiled, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / totalUs).toFixed(0)}% of one core)\n`);
console.log('self time by package / file');
for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(v)}  ${k}`);
console.log('\nself time by function');
for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(v)}  ${k}`);

// --callers NAME: whose code the self time of functions named NAME is spent for
// (nearest caller outside node: internals).
const ci = process.argv.indexOf('--callers');
if (ci > 0) {
  const name = process.argv[ci + 1];
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byCaller = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    if (byId.get(id)!.callFrame.functionName !== name) continue;
    total += us;
    let p = parent.get(id);
    while (p !== undefined && (byId.get(p)!.callFrame.url.startsWith('node:') || byId.get(p)!.callFrame.url === '')) p = parent.get(p);
    const f = p === undefined ? undefined : byId.get(p)!.callFrame;
    add(byCaller, f ? `${f.functionName || '(anonymous)'}  ${inPackage(f.url)}:${f.lineNumber + 1}` : '(root)', us);
  }
  console.log(`\n${name}: ${pct(total)} of samples, by caller`);
  for (const [k, v] of [...byCaller].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${pct(v)}  ${k}`);
}
