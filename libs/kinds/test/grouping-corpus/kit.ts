import { exceptionReport } from '../../src/error/otlp.ts';
import type { FingerprintInput } from '../../src/error/grouping/fingerprint.ts';

// The grouping corpus's tools: a seeded generator (the corpus is the same on every run),
// the values real reports carry in their messages, the ways one error's report varies
// (deploys, hosts, browsers, the OTLP path), and pairwise precision and recall.

export type Report = FingerprintInput;

/** The classes of docs/fingerprint.md's cross-platform normalisations. */
export type Variation = 'path' | 'address' | 'id' | 'code' | 'subclass' | 'wording';

export interface Issue {
  /** The true issue: one bug at one place. */
  id: string;
  platform: 'node' | 'browser' | 'python' | 'java' | 'go' | 'ruby' | 'dotnet';
  /** Its messages carry ids or values: it must never be split by them. */
  idsInMessage?: boolean;
  /** What varies between its reports that rule v2 split on (platforms-and-browsers.ts). */
  varies?: Variation;
  /** How many reports of it the stream holds. */
  reports: number;
  make(r: Rng, i: number): Report;
}

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    // mulberry32
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
  hex(n: number): string {
    return this.chars('0123456789abcdef', n);
  }
  base62(n: number): string {
    return this.chars('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', n);
  }
  uuid(): string {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-a${this.hex(3)}-${this.hex(12)}`;
  }
  ulid(): string {
    return `01${this.chars('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24)}`;
  }
  email(): string {
    return `${this.pick(['jane', 'omar', 'li.wei', 'sam+shop', 'k.ito'])}${this.int(1, 999)}@${this.pick(['example.com', 'mail.example.org', 'acme.io'])}`;
  }
  ip(): string {
    return `${this.int(10, 192)}.${this.int(0, 255)}.${this.int(0, 255)}.${this.int(1, 254)}`;
  }
  iso(): string {
    return new Date(Date.UTC(2026, this.int(0, 10), this.int(1, 28), this.int(0, 23), this.int(0, 59), this.int(0, 59), this.int(0, 999))).toISOString();
  }
}

/** A deploy: which release, where it is installed, and how far each file's lines moved. */
export interface Deploy {
  n: number;
  root: string;
  hash: string;
  shift: number;
}

export function deploy(r: Rng, i: number): Deploy {
  const n = i % 3;
  return {
    n,
    root: r.pick(['/app', '/srv/app', `/home/deploy/releases/2026110${n + 1}120000`, '/var/task', '/opt/shop/current']),
    hash: ['8a7b6c5d4e3f2a1b', 'c03fe91b77d2a650', '1f0e2d3c4b5a6978'][n],
    shift: n * 7,
  };
}

/** The line of a frame in a deploy: code above it moves with each deploy. */
export const line = (d: Deploy, base: number) => base + d.shift;

/** An OpenTelemetry exception event on a span, mapped as the receiver maps it (the OTLP path). */
export function viaOtlp(type: string, message: string, stacktrace: string | undefined, resource: Record<string, string> = {}): Report {
  const attributes = [
    { key: 'exception.type', value: { stringValue: type } },
    { key: 'exception.message', value: { stringValue: message } },
    ...(stacktrace ? [{ key: 'exception.stacktrace', value: { stringValue: stacktrace } }] : []),
  ];
  const body = exceptionReport({ name: 'exception', attributes }, { name: 'GET /x', isError: true, attributes: {} }, { service: resource.service ?? 'svc' });
  return { error_message: body.error_message, stack_trace: body.stack_trace, context: body.context as Record<string, unknown> };
}

const pairs = (n: number) => (n * (n - 1)) / 2;

/** Pairwise precision and recall of a grouping against the truth (each report: true issue, group). */
export function pairwise(rows: Array<{ issue: string; group: string }>) {
  const cells = new Map<string, number>();
  const issues = new Map<string, number>();
  const groups = new Map<string, number>();
  for (const { issue, group } of rows) {
    cells.set(`${issue}\u0000${group}`, (cells.get(`${issue}\u0000${group}`) ?? 0) + 1);
    issues.set(issue, (issues.get(issue) ?? 0) + 1);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  let together = 0;
  for (const n of cells.values()) together += pairs(n);
  let sameIssue = 0;
  for (const n of issues.values()) sameIssue += pairs(n);
  let sameGroup = 0;
  for (const n of groups.values()) sameGroup += pairs(n);
  const precision = sameGroup === 0 ? 1 : together / sameGroup;
  const recall = sameIssue === 0 ? 1 : together / sameIssue;
  const split = new Map<string, Set<string>>();
  const mixed = new Map<string, Set<string>>();
  for (const { issue, group } of rows) {
    split.set(issue, (split.get(issue) ?? new Set()).add(group));
    mixed.set(group, (mixed.get(group) ?? new Set()).add(issue));
  }
  return {
    reports: rows.length,
    issues: issues.size,
    groups: groups.size,
    precision,
    recall,
    f1: (2 * precision * recall) / (precision + recall),
    splitIssues: [...split].filter(([, g]) => g.size > 1).map(([i, g]) => `${i} (${g.size})`),
    mixedGroups: [...mixed].filter(([, i]) => i.size > 1).map(([, i]) => [...i].join(' + ')),
  };
}
