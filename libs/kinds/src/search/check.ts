import type { SearchField, SearchMap } from './fields.ts';
import { ownEntry } from './own-entry.ts';
import type { SearchNode } from './tree.ts';

// The check of one `field:value` term against its kind's map: the term as it is compared (a
// level lowered, a duration in milliseconds), or a readable reason it cannot be
// (docs/dashboard.md, "Search syntax").

type FieldNode = Extract<SearchNode, { type: 'field' }>;
type Fail = (message: string) => never;

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The largest number a search compares exactly (2^53 - 1): past it a float's neighbours are more than 1 apart. */
export const MAX_EXACT_NUMBER = Number.MAX_SAFE_INTEGER;
/** Whether a number as written is compared exactly (as a float, its magnitude at most 2^53 - 1). */
export const exactNumber = (value: string) => Math.abs(Number(value)) <= MAX_EXACT_NUMBER;

/** A duration's units, in milliseconds; a bare number is milliseconds. */
const UNITS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000, m: 60_000, h: 3600_000 };
const DURATION = /^(\d+(?:\.\d+)?|\.\d+)(us|µs|ms|s|m|h)?$/;

/** A duration as written (`250`, `250ms`, `2s`, `1.5m`) in milliseconds, or undefined. */
export function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * (ownEntry(UNITS, m[2] ?? 'ms') ?? Number.NaN);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The fields that compare with >, >=, <, <= (and the keyed numbers), as a message names them. */
const comparable = (map: SearchMap) =>
  [...Object.entries(map.fields).filter(([, f]) => f.match === 'ordered' || f.match === 'duration'), [`${map.keyNoun} numbers`]].map(([n]) => n).join(' and ');

const listed = (values: readonly string[]) => (values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`);

function checkNumber(node: FieldNode, name: string, fail: Fail): FieldNode {
  if (node.wildcard || !NUMBER.test(node.value) || !Number.isFinite(Number(node.value))) return fail(`${name}${node.op} needs a number, not "${node.value}"`);
  if (!exactNumber(node.value))
    return fail(
      `${name}${node.op} compares numbers up to 2^53 (${MAX_EXACT_NUMBER}) exactly, not "${node.value}": use a smaller number, or ${name}:${node.value} to match it as written`,
    );
  return node;
}

/** The term checked against `def` (undefined: a keyed field's key). */
export function checkField(node: FieldNode, def: SearchField | undefined, map: SearchMap, fail: Fail): SearchNode {
  const name = node.key === undefined ? node.field : `${node.field}.${node.key}`;
  const comparison = node.op !== '=' && node.op !== 'exists';
  if (!def) return comparison ? checkNumber(node, name, fail) : node;
  if (def.match === 'absent') return fail(`${map.noun}s cannot be searched by ${name}`);
  if (def.match === 'key') return checkField({ ...node, field: def.keyed, key: node.field }, undefined, map, fail);
  if (def.match === 'duration') {
    if (node.op === 'exists') return fail(`every ${map.noun} has a ${name}: "${name}:*" filters nothing`);
    const ms = node.wildcard ? undefined : durationMs(node.value);
    if (ms === undefined) return fail(`${name} needs a number of ms, or with a unit (us, ms, s, m, h): not "${node.value}"`);
    if (ms > MAX_EXACT_NUMBER) return fail(`${name} is at most 2^53 ms (${MAX_EXACT_NUMBER}), not "${node.value}"`);
    return { ...node, value: String(ms) };
  }
  if (comparison && def.match !== 'ordered') return fail(`${name} cannot be compared with ${node.op}: only ${comparable(map)} can`);
  if (def.match === 'ordered' || def.match === 'oneOf') {
    if (node.op === 'exists') return fail(`every ${map.noun} has a ${name}: "${name}:*" filters nothing`);
    const value = node.value.toLowerCase();
    if (node.wildcard || !def.values.includes(value)) return fail(`${name} is ${listed(def.values)}, not "${node.value}"`);
    return { ...node, value };
  }
  return node;
}
