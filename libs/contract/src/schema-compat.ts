// Whether a new version of a published JSON Schema (json-schema.ts) keeps the consumers of
// the previous one working, both ways, since a topic holds messages of both for as long
// as Kafka retains them (docs/topics.md, "Evolution"):
//   old reader  a consumer built on the previous schema reads the new messages: nothing may
//               disappear, become optional, widen its type or range, or gain an enum value;
//   old data    this version's consumers (and a replay) read the messages already in the
//               topics: nothing may become required, narrow its type or range, or lose an
//               enum value.
// Covers the keywords the generator writes (type, properties, required, items,
// additionalProperties, enum, const, format, pattern, bounds, anyOf branches told apart
// by a one-value `kind`, $ref into $defs). A new property that is optional, and a new
// kind (a new topic), are compatible.

/** A published JSON Schema document (json-schema.ts writes them). */
export type JsonSchema = Record<string, unknown>;

export interface Incompatibility {
  /** Where, as a path through the message (`events[].data.level`). */
  at: string;
  /** Which consumers break: those of the previous schema, or this version's reading retained messages. */
  breaks: 'old reader' | 'old data';
  what: string;
}

type S = JsonSchema & {
  type?: string | string[];
  properties?: Record<string, S>;
  required?: string[];
  items?: S;
  additionalProperties?: S | boolean;
  enum?: unknown[];
  anyOf?: S[];
  $ref?: string;
  $defs?: Record<string, S>;
};

const BOUNDS_LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'] as const;
const BOUNDS_UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'] as const;
const EXACT = ['const', 'format', 'pattern'] as const;

/** Every change from `before` to `after` that breaks a consumer; empty when compatible. */
export function incompatibilities(before: JsonSchema, after: JsonSchema): Incompatibility[] {
  const out: Incompatibility[] = [];
  const deref = (root: S, s: S): S => {
    for (let i = 0; s.$ref && i < 32; i++) {
      const name = s.$ref.replace(/^#\/\$defs\//, '');
      const target = root.$defs?.[name];
      if (!target) throw new Error(`unresolved $ref ${s.$ref}`);
      s = target;
    }
    return s;
  };
  const say = (at: string, breaks: Incompatibility['breaks'], what: string) => out.push({ at: at || '(root)', breaks, what });
  const types = (s: S) => {
    const t = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
    return new Set(t.includes('number') ? [...t, 'integer'] : t); // an integer is a number
  };
  const branchKey = (root: S, s: S) => JSON.stringify(deref(root, deref(root, s).properties?.kind ?? {}).enum ?? null);

  const walk = (a0: S, b0: S, at: string) => {
    const a = deref(before as S, a0);
    const b = deref(after as S, b0);
    const ta = types(a);
    const tb = types(b);
    if (ta.size > 0 || tb.size > 0) {
      // No type at all accepts any value.
      const widened = tb.size === 0 ? ['(any)'] : ta.size === 0 ? [] : [...tb].filter((t) => !ta.has(t));
      const narrowed = ta.size === 0 ? ['(any)'] : tb.size === 0 ? [] : [...ta].filter((t) => !tb.has(t));
      if (widened.length)
        say(at, 'old reader', `type ${[...ta].join('|') || '(any)'} became ${[...tb].join('|') || '(any)'}: values of type ${widened.join('|')} are new`);
      if (narrowed.length)
        say(at, 'old data', `type ${[...ta].join('|') || '(any)'} became ${[...tb].join('|') || '(any)'}: values of type ${narrowed.join('|')} are no longer accepted`);
    }
    if (a.enum || b.enum) {
      const added = b.enum ? (a.enum ? b.enum.filter((v) => !a.enum!.includes(v)) : []) : ['(any value)'];
      const removed = a.enum ? (b.enum ? a.enum.filter((v) => !b.enum!.includes(v)) : []) : ['(any value)'];
      if (added.length) say(at, 'old reader', `enum value(s) ${JSON.stringify(added)} added`);
      if (removed.length) say(at, 'old data', `enum value(s) ${JSON.stringify(removed)} removed`);
    }
    for (const k of EXACT) {
      if (JSON.stringify(a[k]) === JSON.stringify(b[k])) continue;
      if (a[k] !== undefined) say(at, 'old reader', `${k} ${JSON.stringify(a[k])} ${b[k] === undefined ? 'dropped' : `became ${JSON.stringify(b[k])}`}`);
      if (b[k] !== undefined) say(at, 'old data', `${k} ${JSON.stringify(b[k])} ${a[k] === undefined ? 'added' : `replaced ${JSON.stringify(a[k])}`}`);
    }
    for (const [i, k] of BOUNDS_LOWER.entries()) {
      const [x, y] = [a[k] as number | undefined, b[k] as number | undefined];
      if (x !== undefined && (y === undefined || y < x)) say(at, 'old reader', `${k} ${x} lowered to ${y ?? '(none)'}`);
      if (y !== undefined && (x === undefined || y > x)) say(at, 'old data', `${k} ${x ?? '(none)'} raised to ${y}`);
      const u = BOUNDS_UPPER[i];
      const [p, q] = [a[u] as number | undefined, b[u] as number | undefined];
      if (p !== undefined && (q === undefined || q > p)) say(at, 'old reader', `${u} ${p} raised to ${q ?? '(none)'}`);
      if (q !== undefined && (p === undefined || q < p)) say(at, 'old data', `${u} ${p ?? '(none)'} lowered to ${q}`);
    }
    if (a.properties || b.properties) {
      const ra = new Set(a.required ?? []);
      const rb = new Set(b.required ?? []);
      for (const [name, sa] of Object.entries(a.properties ?? {})) {
        const sb = b.properties?.[name];
        const here = at ? `${at}.${name}` : name;
        if (!sb) {
          if (ra.has(name)) say(here, 'old reader', 'required field removed');
          continue;
        }
        if (ra.has(name) && !rb.has(name)) say(here, 'old reader', 'field no longer required: it may be absent');
        walk(sa, sb, here);
      }
      for (const name of rb) if (!ra.has(name)) say(at ? `${at}.${name}` : name, 'old data', 'field became required: messages written before lack it');
    }
    if (a.items || b.items) walk(a.items ?? {}, b.items ?? {}, `${at}[]`);
    if (typeof a.additionalProperties === 'object' && typeof b.additionalProperties === 'object') walk(a.additionalProperties, b.additionalProperties, `${at}{}`);
    else if (a.additionalProperties === false && b.additionalProperties !== false) say(at, 'old reader', 'other fields are now allowed');
    else if (b.additionalProperties === false && a.additionalProperties !== false) say(at, 'old data', 'other fields are no longer allowed');
    if (a.anyOf || b.anyOf) {
      const mine = new Map((b.anyOf ?? []).map((s) => [branchKey(after as S, s), s]));
      for (const sa of a.anyOf ?? []) {
        const key = branchKey(before as S, sa);
        const sb = mine.get(key);
        if (!sb) say(at, 'old data', `branch kind=${key} removed`);
        else walk(sa, sb, `${at}<kind=${JSON.parse(key)?.[0] ?? '?'}>`);
      }
    }
  };
  walk(before as S, after as S, '');
  return out;
}
