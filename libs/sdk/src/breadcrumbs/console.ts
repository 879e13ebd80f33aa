// Console calls as breadcrumbs (docs/sdk.md#breadcrumbs), in browsers and on Node alike: each
// level wrapped once per client, the original called as before, restored by the returned
// function. The SDK's own console output (its warnings, `console: true`) leaves no breadcrumb.
import type { Breadcrumb } from '../types.js';

type Add = (crumb: Breadcrumb) => void;

const MAX_TEXT = 80;
export const cut = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

function stringify(args: unknown[]): string {
  return cut(
    args
      .map((a) => {
        if (typeof a === 'string') return a;
        if (a instanceof Error) return `${a.name}: ${a.message}`;
        try {
          return JSON.stringify(a);
        } catch {
          return String(a);
        }
      })
      .join(' '),
  );
}

const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;
const OWN = Symbol.for('devtrail.sdk.console-own');
type Holder = { [OWN]?: number };

/** Runs `fn` (the SDK writing to the console itself) without leaving breadcrumbs. */
export function ownConsole<T>(fn: () => T): T {
  const g = globalThis as Holder;
  g[OWN] = (g[OWN] ?? 0) + 1;
  try {
    return fn();
  } finally {
    g[OWN]!--;
  }
}

export function consoleBreadcrumbs(add: Add): () => void {
  const originals = CONSOLE_LEVELS.map((level) => [level, console[level]] as const);
  for (const [level, original] of originals) {
    console[level] = (...args: unknown[]) => {
      if (!(globalThis as Holder)[OWN] && !(typeof args[0] === 'string' && args[0].startsWith('[devtrail]'))) {
        try {
          add({ type: 'console', message: `[${level}] ${stringify(args)}` });
        } catch {
          // a breadcrumb must never break the app's logging
        }
      }
      original.apply(console, args);
    };
  }
  return () => {
    for (const [level, original] of originals) console[level] = original;
  };
}
