import { randomUUID } from 'node:crypto';

// Bodies are built as JS values; a RawJson is JSON text written into the body as-is: number
// literals JSON.stringify cannot write (1e309, which JSON allows and JSON.parse reads as
// Infinity; -0; 1E+400) and nesting deeper than JSON.stringify's recursion goes.

export class RawJson {
  constructor(readonly literal: string) {}
}

/** A number literal, written as-is. */
export const rawNumber = (literal: string) => new RawJson(literal);

/** Arrays nested `depth` deep, as text. */
export const deepArrays = (depth: number) => new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);

/** JSON text of `value`, with every RawJson written as its literal. */
export function toJsonText(value: unknown): string {
  const token = `@@raw-${randomUUID()}-`;
  const literals: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof RawJson) {
      literals.push(v.literal);
      return `${token}${literals.length - 1}@@`;
    }
    return v;
  });
  return text.replace(new RegExp(`"${token}(\\d+)@@"`, 'g'), (_m, i) => literals[Number(i)]);
}
