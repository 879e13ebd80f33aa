import { createHmac } from 'node:crypto';
import { RE2JS } from 're2js';
import type { Scrubbing, ScrubRule, ScrubAction } from '../policy.ts';
import { isSecretKey } from './secret-keys.ts';
import { VALUE_PATTERNS, type Replace } from './value-patterns.ts';
import { BudgetSpent, scrubBudget, worstNs, type ScrubBudget } from './rule-cost.ts';

// A project's scrubbing settings compiled once (the receiver keeps it with the project's
// cached key grant). It rewrites a JSON value in place: a value under a key a key rule
// matches is acted on whole, every other string goes through the value rules. Rules apply
// in order, the project's own before the defaults; the first key rule that matches a key
// decides. docs/data.md says what each rule and action does. Every rule, built-in or the
// project's, key or value, runs under the request's one budget (rule-cost.ts): past it, a
// value is filtered whole.

export const FILTERED = '[Filtered]';
const REMOVE = Symbol('remove');

type KeyAction = (value: unknown) => unknown;
type StringRule = (s: string, budget: ScrubBudget) => string;

export interface Scrubber {
  /** A JSON value (metadata, context, breadcrumbs): scrubbed in place where it is an object or array; returns what to keep. */
  tree(v: unknown, budget?: ScrubBudget): unknown;
  /** A free-text value (a message): its value patterns scrubbed. */
  text(s: string, budget?: ScrubBudget): string;
  /**
   * How many values, keys and strings scrubbing has changed so far (it only grows): unchanged
   * across a run, the run left every value exactly as it was given (certificate.ts).
   */
  edits(): number;
}

function keyAction(action: ScrubAction, hash: (s: string) => string): KeyAction {
  switch (action) {
    case 'filter':
      return (v) => (v === null ? v : FILTERED);
    case 'remove':
      return () => REMOVE;
    case 'mask':
      return (v) => (v === null ? v : typeof v === 'object' ? FILTERED : '*'.repeat(String(v).length));
    case 'hash':
      return (v) => (v === null ? v : hash(typeof v === 'string' ? v : JSON.stringify(v)));
  }
}

function replacement(action: ScrubAction, hash: (s: string) => string): Replace {
  switch (action) {
    case 'filter':
      return () => FILTERED;
    case 'remove':
      return () => '';
    case 'mask':
      return (m) => '*'.repeat(m.length);
    case 'hash':
      return hash;
  }
}

/** An operator's regex on RE2: linear time whatever the pattern (docs/data.md#bounds). */
export function compileRegex(pattern: string): RE2JS {
  return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
}

const DEFAULT_RULES: ScrubRule[] = [
  { match: 'secret_keys', action: 'filter' },
  { match: 'creditcard', action: 'filter' },
];

/** The compiled scrubber, or null when there is nothing to scrub (defaults off, no rules). */
export function compileScrubber(settings: Scrubbing, salt: string | null): Scrubber | null {
  const rules = [...settings.rules, ...(settings.defaults ? DEFAULT_RULES : [])];
  if (rules.length === 0) return null;
  const hash = (s: string) =>
    createHmac('sha256', salt ?? '')
      .update(s)
      .digest('hex')
      .slice(0, 32);
  const keyRules: Array<{ test: (key: string) => boolean; act: KeyAction; size: number }> = [];
  const stringRules: StringRule[] = [];
  for (const rule of rules) {
    if (rule.match === 'secret_keys') keyRules.push({ test: isSecretKey, act: keyAction(rule.action, hash), size: 0 });
    else if (rule.match === 'key') {
      const re = compileRegex(rule.pattern);
      keyRules.push({ test: (k) => re.test(k), act: keyAction(rule.action, hash), size: re.programSize() });
    } else if (rule.match === 'regex') {
      const re = compileRegex(rule.pattern);
      const r = replacement(rule.action, hash);
      const size = re.programSize();
      // Past the request's budget the value is filtered whole, never kept unscrubbed (rule-cost.ts).
      stringRules.push((s, budget) => {
        if (!budget.take(worstNs(size, s.length))) return FILTERED;
        return re.test(s) ? re.matcher(s).replaceAll((m: string) => r(m)) : s;
      });
    } else {
      const find = VALUE_PATTERNS[rule.match];
      const r = replacement(rule.action, hash);
      // Linear: it reads the text, telling the budget as it goes, and stops when it is spent.
      stringRules.push((s, budget) => {
        try {
          budget.charge(s.length);
          return find(s, r, (n) => budget.charge(n));
        } catch (err) {
          if (err instanceof BudgetSpent) return FILTERED;
          throw err;
        }
      });
    }
  }
  const keyPatternsSize = keyRules.reduce((n, r) => n + r.size, 0);
  const filterWhole = keyAction('filter', hash);

  // Keys repeat from event to event: each is judged once (bounded), under the budget: the
  // built-in rule charges the key's characters, the project's patterns their worst case. A key
  // the budget cannot judge has its value filtered (and is judged again another time).
  const judged = new Map<string, KeyAction | null>();
  const actionFor = (key: string, budget: ScrubBudget): KeyAction | null => {
    let a = judged.get(key);
    if (a !== undefined) return a;
    if (keyRules.length === 0) return null;
    try {
      budget.charge(key.length);
      if (keyPatternsSize > 0 && !budget.take(worstNs(keyPatternsSize, key.length))) return filterWhole;
    } catch (err) {
      if (err instanceof BudgetSpent) return filterWhole;
      throw err;
    }
    a = keyRules.find((r) => r.test(key))?.act ?? null;
    if (judged.size >= 10_000) judged.clear();
    judged.set(key, a);
    return a;
  };
  // Every change is counted where it is made: a run that counts none changed nothing.
  let edits = 0;
  const text = (given: string, budget: ScrubBudget): string => {
    let s = given;
    for (const rule of stringRules) {
      s = rule(s, budget);
      if (s === FILTERED) break;
    }
    if (s !== given) edits++;
    return s;
  };

  const walk = (v: unknown, budget: ScrubBudget): unknown => {
    if (typeof v === 'string') return text(v, budget);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      // A [key, value] pair (headers as a list) is judged by its key.
      const pairAction = v.length === 2 && typeof v[0] === 'string' ? actionFor(v[0], budget) : null;
      if (pairAction) {
        const out = pairAction(v[1]);
        const kept = out === REMOVE ? null : out;
        if (kept !== v[1]) edits++;
        v[1] = kept;
        return v;
      }
      for (let i = 0; i < v.length; i++) v[i] = walk(v[i], budget);
      return v;
    }
    const o = v as Record<string, unknown>;
    for (const key in o) {
      const act = actionFor(key, budget);
      if (act) {
        const out = act(o[key]);
        if (out === REMOVE) {
          delete o[key];
          edits++;
        } else if (out !== o[key]) {
          o[key] = out;
          edits++;
        }
        continue;
      }
      const x = o[key];
      if (typeof x === 'string') {
        const y = text(x, budget);
        if (y !== x) o[key] = y;
      } else if (x !== null && typeof x === 'object') walk(x, budget);
    }
    return o;
  };
  // A call without a budget (one value on its own) gets a budget of its own.
  return { tree: (v, budget = scrubBudget()) => walk(v, budget), text: (s, budget = scrubBudget()) => text(s, budget), edits: () => edits };
}
