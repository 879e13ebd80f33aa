import { RE2JS } from 're2js';

// What an operator's RE2 pattern may cost (docs/data.md#bounds-on-operators-patterns). RE2 is
// linear in the text, but its constant is the pattern's program size: `[a-z]{1,999}` compiles
// to ~2,000 instructions, and a text can keep every one of them live at each character. So a
// pattern is refused when saved past these bounds, and each request's scrubbing has a budget:
// a value is run through a pattern only when its worst case fits in what is left of the budget;
// otherwise the value is filtered whole (never stored unscrubbed).

/** The largest RE2 program (instructions, `programSize()`) a pattern may compile to. */
export const MAX_PROGRAM_SIZE = 400;
/** The most instructions a project's patterns may compile to together: a receiver compiles them all with a key's grant. */
export const MAX_TOTAL_PROGRAM_SIZE = 1600;
/** The most a pattern's counted repetitions ({n}, {n,m}) may add up to: checked on the text, before compiling (a compile costs ~50 µs per instruction). */
export const MAX_REPETITION_SUM = 400;
/** Worst measured time per character per program instruction (bench/scrub-cost.ts; docs/benchmarks.md). */
export const WORST_NS_PER_CHAR_INSTRUCTION = 200;
/** The time one request's scrubbing may spend, every rule together (docs/data.md). */
export const SCRUB_BUDGET_MS = 250;

/** The sum of a pattern's counted repetitions' upper bounds ({n,} counts n), read from its text. */
export function repetitionSum(pattern: string): number {
  let sum = 0;
  for (const m of pattern.matchAll(/\{(\d{1,6})(?:,(\d{0,6}))?\}/g)) sum += Math.max(Number(m[1]), Number(m[2] || 0));
  return sum;
}

/** Why a pattern is too expensive to run, or null. Throws what RE2 throws for a pattern it cannot compile. */
export function tooExpensive(pattern: string): { reason: string; size: number | null } | null {
  const reps = repetitionSum(pattern);
  if (reps > MAX_REPETITION_SUM)
    return {
      reason: `Too expensive: its repetition counts add up to ${reps} (at most ${MAX_REPETITION_SUM}); use smaller counts ({1,999} costs ~2,000 RE2 instructions)`,
      size: null,
    };
  const size = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).programSize();
  if (size > MAX_PROGRAM_SIZE)
    return { reason: `Too expensive: compiles to ${size} RE2 instructions (at most ${MAX_PROGRAM_SIZE}); use smaller repetition counts and fewer alternatives`, size };
  return null;
}

/** A pattern's program size (compiled case-insensitive, as the scrubber runs it); null for one refused on its own. */
export function programSize(pattern: string): number | null {
  if (repetitionSum(pattern) > MAX_REPETITION_SUM) return null;
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).programSize();
  } catch {
    return null;
  }
}

/**
 * A request's scrubbing budget, a deadline every rule shares (docs/data.md#scrubbing): the
 * built-in rules, the key rules and the project's patterns. A pattern of the project's runs over
 * a value only when its worst case (worstNs) ends before the deadline; the built-in rules, linear,
 * charge the characters they read and stop once the deadline has passed. Either way the value is
 * then filtered whole, never kept unscrubbed, and what a run really costs (mostly far below its
 * worst case) is all it takes from the budget.
 */
export interface ScrubBudget {
  /** Whether a run whose worst case is `ns` still ends before the deadline. */
  take(ns: number): boolean;
  /** Counts characters a linear rule reads; throws BudgetSpent once the deadline has passed (the clock is read every CLOCK_EVERY_CHARS). */
  charge(chars: number): void;
}

/** Thrown by ScrubBudget.charge past the deadline: the value being scrubbed is filtered whole. */
export class BudgetSpent extends Error {
  constructor() {
    super('scrubbing budget spent');
  }
}

/** How many characters the linear rules read between two looks at the clock (a look costs ~50 ns; the worst rule reads this many in ~2 ms). */
export const CLOCK_EVERY_CHARS = 8192;

export function scrubBudget(ms = SCRUB_BUDGET_MS): ScrubBudget {
  const deadline = performance.now() + ms;
  let uncounted = CLOCK_EVERY_CHARS; // the first charge looks at the clock
  let spent = false;
  return {
    take: (ns) => !spent && performance.now() + ns / 1e6 <= deadline,
    charge(chars) {
      if (!spent) {
        uncounted += chars;
        if (uncounted < CLOCK_EVERY_CHARS) return;
        uncounted = 0;
        spent = performance.now() > deadline;
        if (!spent) return;
      }
      throw new BudgetSpent();
    },
  };
}

/** The worst case of running a pattern of this program size over a text of this length, in ns. */
export const worstNs = (size: number, length: number) => size * length * WORST_NS_PER_CHAR_INSTRUCTION;
