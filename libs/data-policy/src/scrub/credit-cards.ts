// Payment card numbers in free text (docs/data.md#default-rules): 13 to 19 digits, written
// together or in groups separated by one space or dash, passing the Luhn check. A run of
// digit groups is searched group-aligned, so a card beside a year or a phone number is still
// found, and a longer run of digits without separators (an id) is not a card. Nor is a run
// glued to a word, directly or through a dash: it is part of an identifier (a UUID's groups,
// a hex digest, `order-…`), and about 3 random UUIDs in 1,000 hold a Luhn-valid span. A UUID
// whose hex happens to hold no letter is all digits and dashes: its dash-joined piece of the run
// is an identifier too. The work is linear in the string: a span never grows past 19 digits.

/** Runs of at least 13 digits with single spaces or dashes between them; the only candidates. */
const RUN = /[0-9](?:[ -]?[0-9]){12,}/g;
const GATE = /[0-9](?:[ -]?[0-9]){12}/;
const GROUP = /[0-9]+/g;
/** A UUID in digits only (8-4-4-4-12); inside a run, so only a space or a dash can border it. */
const DIGIT_UUID = /(?<![0-9])[0-9]{8}-[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{12}(?![0-9])/g;

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

/** The card numbers in a run of digit groups: [start, end) offsets within the run, left to right. */
function cardsIn(run: string): Array<[number, number]> {
  const groups: Array<{ at: number; digits: string }> = [];
  for (const m of run.matchAll(GROUP)) groups.push({ at: m.index, digits: m[0] });
  const found: Array<[number, number]> = [];
  let i = 0;
  while (i < groups.length) {
    // The longest span of whole groups from group i that holds 13-19 digits and passes Luhn.
    let digits = '';
    let best = -1;
    for (let j = i; j < groups.length; j++) {
      digits += groups[j].digits;
      if (digits.length > 19) break;
      if (digits.length >= 13 && luhn(digits)) best = j;
    }
    if (best < 0) {
      i++;
      continue;
    }
    found.push([groups[i].at, groups[best].at + groups[best].digits.length]);
    i = best + 1;
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

/** `s` with each card number replaced by `replace(card)`; `s` itself when it has none. */
export function replaceCards(s: string, replace: (card: string) => string): string {
  if (s.length < 13 || !GATE.test(s)) return s;
  return s.replace(RUN, (run: string, at: number) => {
    if (gluedToWord(s, at, at + run.length)) return run;
    if (run.length < 36) return replaceInRun(run, replace);
    // Keep each dash-joined piece that holds a digit-only UUID; search the rest of the run.
    let out = '';
    let from = 0;
    for (const m of run.matchAll(DIGIT_UUID)) {
      if (m.index < from) continue;
      const start = run.lastIndexOf(' ', m.index) + 1;
      const space = run.indexOf(' ', m.index + m[0].length);
      const end = space < 0 ? run.length : space;
      out += replaceInRun(run.slice(from, start), replace) + run.slice(start, end);
      from = end;
    }
    return out + replaceInRun(run.slice(from), replace);
  });
}

function replaceInRun(run: string, replace: (card: string) => string): string {
  const cards = cardsIn(run);
  if (cards.length === 0) return run;
  let out = '';
  let from = 0;
  for (const [a, b] of cards) {
    out += run.slice(from, a) + replace(run.slice(a, b));
    from = b;
  }
  return out + run.slice(from);
}
