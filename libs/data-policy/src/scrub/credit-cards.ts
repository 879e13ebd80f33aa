// Payment card numbers in free text (docs/data.md#default-rules): 13 to 19 digits, written
// together or in groups separated by one space or dash, passing the Luhn check. A run of
// digit groups is searched group-aligned, so a card beside a year or a phone number is still
// found, and a longer run of digits without separators (an id) is not a card. Nor is a run
// glued to a word, directly or through a dash: it is part of an identifier (a UUID's groups,
// a hex digest, `order-…`), and about 3 random UUIDs in 1,000 hold a Luhn-valid span. A UUID
// whose hex happens to hold no letter is all digits and dashes: its dash-joined piece of the run
// is an identifier too. The work is linear in the string: a span never grows past 19 digits,
// and the caller's budget is told of what is read as it goes.

/** Runs of at least 13 digits with single spaces or dashes between them; the only candidates. */
const RUN = /[0-9](?:[ -]?[0-9]){12,}/g;
const GATE = /[0-9](?:[ -]?[0-9]){12}/;
/** A UUID in digits only (8-4-4-4-12); inside a run, so only a space or a dash can border it. */
const DIGIT_UUID = /(?<![0-9])[0-9]{8}-[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{12}(?![0-9])/g;

/** Told of the characters a search has read; may throw to stop it (the request's scrubbing budget). */
export type Tick = (chars: number) => void;
const noTick: Tick = () => {};

export function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const doubled = (d: number) => (d * 2 > 9 ? d * 2 - 9 : d * 2);
const MAX_DIGITS = 19;

/**
 * The card numbers in a run of digit groups: [start, end) offsets within the run, left to right.
 * A window of whole groups slides along the run: from each group, the longest span of whole
 * groups that holds 13 to 19 digits and passes Luhn. Luhn sums of every span of the window come
 * from two running sums (a digit doubled or not, by its parity), so a group costs the window's
 * digits (at most ~20), whatever the groups are like: linear, with no per-group allocation.
 */
function cardsIn(run: string, tick: Tick): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let pos = 0;
  /** Appends the run's next group to the window; false at the run's end. */
  const more = (): boolean => {
    while (pos < run.length && !isDigit(run.charCodeAt(pos))) pos++;
    if (pos >= run.length) return false;
    const start = pos;
    while (pos < run.length && isDigit(run.charCodeAt(pos))) pos++;
    starts.push(start);
    ends.push(pos);
    return true;
  };
  // The window's digits (at most 19, and the group that passes them) and their running sums:
  // even[k]: digits before k, those at even places as they are, odd places doubled; odd[k]: the other way.
  const even = new Int32Array(64);
  const odd = new Int32Array(64);
  let open = true;
  for (;;) {
    if (starts.length === 0 && !(open = open && more())) break;
    let digits = 0;
    let best = -1;
    for (let g = 0; ; g++) {
      if (g === starts.length && !(open = open && more())) break;
      for (let p = starts[g]; p < ends[g]; p++) {
        const d = run.charCodeAt(p) - 48;
        even[digits + 1] = even[digits] + (digits % 2 === 0 ? d : doubled(d));
        odd[digits + 1] = odd[digits] + (digits % 2 === 0 ? doubled(d) : d);
        if (++digits > MAX_DIGITS) break;
      }
      if (digits > MAX_DIGITS) break;
      // Luhn doubles every second digit from the right: the last one's place says which sum.
      if (digits >= 13 && ((digits - 1) % 2 === 0 ? even[digits] : odd[digits]) % 10 === 0) best = g;
    }
    const taken = best < 0 ? 1 : best + 1;
    if (best >= 0) found.push([starts[0], ends[best]]);
    tick(ends[taken - 1] - starts[0] + 1);
    starts.splice(0, taken);
    ends.splice(0, taken);
  }
  return found;
}

const WORD = /[A-Za-z0-9_]/;
const LETTER = /[A-Za-z_]/;

/**
 * Whether the run s[start, end) is part of a longer token: a letter right beside it, or a dash
 * between it and a word. (A digit cannot be right beside it: RUN's matches are maximal.)
 */
function gluedToWord(s: string, start: number, end: number): boolean {
  const before = s[start - 1] ?? '';
  const after = s[end] ?? '';
  if (LETTER.test(before) || LETTER.test(after)) return true;
  return (before === '-' && WORD.test(s[start - 2] ?? '')) || (after === '-' && WORD.test(s[end + 1] ?? ''));
}

/** `s` with each card number replaced by `replace(card)`; `s` itself when it has none. `tick` is told of the digits read (the budget may stop it). */
export function replaceCards(s: string, replace: (card: string) => string, tick: Tick = noTick): string {
  if (s.length < 13 || !GATE.test(s)) return s;
  return s.replace(RUN, (run: string, at: number) => {
    if (gluedToWord(s, at, at + run.length)) return run;
    if (run.length < 36) return replaceInRun(run, replace, tick);
    // Keep each dash-joined piece that holds a digit-only UUID; search the rest of the run.
    let out = '';
    let from = 0;
    for (const m of run.matchAll(DIGIT_UUID)) {
      tick(m[0].length);
      if (m.index < from) continue;
      const start = run.lastIndexOf(' ', m.index) + 1;
      const space = run.indexOf(' ', m.index + m[0].length);
      const end = space < 0 ? run.length : space;
      out += replaceInRun(run.slice(from, start), replace, tick) + run.slice(start, end);
      from = end;
    }
    return out + replaceInRun(run.slice(from), replace, tick);
  });
}

function replaceInRun(run: string, replace: (card: string) => string, tick: Tick): string {
  const cards = cardsIn(run, tick);
  if (cards.length === 0) return run;
  let out = '';
  let from = 0;
  for (const [a, b] of cards) {
    out += run.slice(from, a) + replace(run.slice(a, b));
    from = b;
  }
  return out + run.slice(from);
}
