import protobuf, { Enum, type Field, type Reader, type Type } from 'protobufjs';

// OTLP messages as plain objects, with the values protobufjs gives. protobufjs decodes into
// instances of its message classes, and sets a oneof (every AnyValue: each attribute, each
// log body) through a setter that deletes the oneof's other members, which leaves V8 a
// dictionary-mode object for every attribute; decoding and mapping a log record cost ~7 µs of
// which most is that (docs/benchmarks.md). These follow, field by field, the decoder and
// fromObject that protobufjs 8 generates from the same reflected types (its src/decoder.js and
// src/converter.js), generated the same way, calling the same Reader methods and conversions,
// into objects whose prototype holds the fields' defaults as protobufjs's do: a member of a
// oneof is set and only its other members that are present are removed. libs/kinds/test/
// otlp-plain.unit.test.ts holds the messages, and what the kinds map from them, equal to protobufjs's.
// Only the field kinds the OTLP logs and traces messages use are supported: building the
// plain form of any other type throws, so a change of the .proto files cannot go unnoticed.

type Plain = Record<string, unknown>;
const { types, util } = protobuf;
const ReaderClass = protobuf.Reader;
/** long.js, as protobufjs holds it (its 64-bit values are Longs when it is present, which it is: a dependency of protobufjs). */
const Long = util.Long as unknown as { fromValue(v: unknown, unsigned: boolean): unknown };

/** A field of a type, as both directions need it. */
interface FieldPlan {
  field: Field;
  name: string;
  /** protobufjs's scalar type name (an enum is int32), or undefined for a message. */
  scalar: string | undefined;
  message: Type | undefined;
  /** The other members of its oneof, removed when it is set. */
  siblings: string[];
}

function plan(type: Type): FieldPlan[] {
  return type.fieldsArray.map((f) => {
    const field = f.resolve();
    const isEnum = field.resolvedType instanceof Enum;
    if (
      field.map ||
      field.delimited ||
      field.required ||
      (isEnum && (field.resolvedType as Enum & { _features: { enum_type?: string } })._features.enum_type === 'CLOSED')
    )
      throw new Error(`plain OTLP messages: ${type.name}.${field.name} is a field kind they do not support`);
    const scalar = isEnum ? 'int32' : (types.basic as Record<string, number>)[field.type] !== undefined ? field.type : undefined;
    if (field.repeated && scalar !== undefined && scalar !== 'string') throw new Error(`plain OTLP messages: ${type.name}.${field.name} is a repeated scalar`);
    const siblings = field.partOf ? field.partOf.oneof.filter((n) => n !== field.name) : [];
    return { field, name: field.name, scalar, message: scalar === undefined ? (field.resolvedType as Type) : undefined, siblings };
  });
}

// --- protobuf: Type.decode -------------------------------------------------------------

type Decode = (r: Reader, length: number | undefined, depth: number, into?: Plain) => Plain;

const decoders = new Map<Type, Decode>();

/** Type.decode as a plain object. */
export function plainDecode(type: Type, bytes: Uint8Array): Plain {
  return decoderOf(type)(ReaderClass.create(bytes), undefined, 0);
}

const prop = (name: string) => `m[${JSON.stringify(name)}]`;

const ctors = new Map<Type, new () => Plain>();

/**
 * A type's plain constructor: its prototype holds the fields' defaults, as protobufjs's message
 * prototypes do (an absent string field reads ''), without their oneof accessors.
 */
function ctorOf(type: Type): new () => Plain {
  let P = ctors.get(type);
  if (!P) {
    P = function Plain() {} as unknown as new () => Plain;
    for (const f of type.fieldsArray) (P.prototype as Plain)[f.name] = f.resolve().defaultValue;
    ctors.set(type, P);
  }
  return P;
}

/** The decoder of a type, generated as protobufjs generates its own (src/decoder.js), each field a case with its name in the source. */
function decoderOf(type: Type): Decode {
  const known = decoders.get(type);
  if (known) return known;
  const subs: Decode[] = [];
  // A stand-in until the code exists: the types are recursive (AnyValue, ArrayValue).
  let compiled: Decode | undefined;
  decoders.set(type, (r, l, q, m) => compiled!(r, l, q, m));
  const cases = plan(type).map((p) => {
    const m = prop(p.name);
    // A oneof's other members can only be present in a message merged into (x) or after one of them was read (w).
    const clear = p.siblings.length ? `if(x||w){${p.siblings.map((s) => `if(h(m,${JSON.stringify(s)}))delete ${prop(s)};`).join('')}}w=1;` : '';
    let body: string;
    if (p.scalar === undefined) {
      subs.push(decoderOf(p.message!));
      const sub = `d[${subs.length - 1}]`;
      body = p.field.repeated
        ? `if(u!==2)break;if(!(${m}&&${m}.length))${m}=[];${m}.push(${sub}(r,r.size(),q+1));`
        : `if(u!==2)break;${m}=${sub}(r,r.size(),q+1,${m});${clear}`;
    } else {
      const wire = (types.basic as Record<string, number>)[p.scalar];
      const method =
        p.scalar === 'string'
          ? (p.field as Field & { _features: { utf8_validation?: string } })._features.utf8_validation === 'VERIFY'
            ? 'stringVerify'
            : 'string'
          : p.scalar;
      if (p.field.repeated) body = `if(u!==${wire})break;if(!(${m}&&${m}.length))${m}=[];${m}.push(r.${method}());`;
      else if (p.field.hasPresence) body = `if(u!==${wire})break;${m}=r.${method}();${clear}`;
      else {
        // proto3 implicit presence: a default value is not kept (and clears an earlier one).
        const typeDefault = p.field.typeDefault;
        const test =
          p.field.resolvedType instanceof Enum && typeDefault !== 0
            ? `(v=r.${method}())!==${JSON.stringify(typeDefault)}`
            : p.scalar === 'string' || p.scalar === 'bytes'
              ? `(v=r.${method}()).length`
              : (types.long as Record<string, number>)[p.scalar] !== undefined
                ? `typeof(v=r.${method}())==="object"?v.low||v.high:v!==0`
                : p.scalar === 'double' || p.scalar === 'float'
                  ? `!Object.is(v=r.${method}(),0)`
                  : `v=r.${method}()`;
        body = `if(u!==${wire})break;if(${test})${m}=v;else if(h(m,${JSON.stringify(p.name)}))delete ${m};`;
      }
    }
    return `case ${p.field.id}:{${body}continue}`;
  });
  const source = `return function(r,l,q,m){
if(q>R.recursionLimit)throw Error("max depth exceeded");
var c,v,w=0,x=!!m;
if(l===undefined)c=r.len;else{c=r.pos+l;if(c>r.len)throw RangeError("index out of range");l=r.len;r.len=c}
if(!m)m=new P();
while(r.pos<c){var t=r.tag(),u=t&7;switch(t>>>=3){${cases.join('\n')}}r.skipType(u,q,t)}
if(l!==undefined){if(r.pos!==c)throw RangeError("index out of range");r.len=l}
return m}`;
  compiled = new Function('R', 'd', 'P', 'h', source)(ReaderClass, subs, ctorOf(type), Object.hasOwn) as Decode;
  decoders.set(type, compiled);
  return compiled;
}

// --- OTLP/JSON: Type.fromObject --------------------------------------------------------

type Convert = (d: Plain, q: number) => Plain;

const converters = new Map<Type, Convert>();

/** Type.fromObject as a plain object (after the OTLP/JSON id fields are made bytes, decode.ts). */
export function plainFromObject(type: Type, object: Plain): Plain {
  return converterOf(type)(object, 0);
}

/** The converter of a type, generated as protobufjs generates fromObject (src/converter.js), with long.js present. */
function converterOf(type: Type): Convert {
  const known = converters.get(type);
  if (known) return known;
  const subs: Convert[] = [];
  const enums: Array<Record<string, number>> = [];
  let compiled: Convert | undefined;
  converters.set(type, (d, q) => compiled!(d, q));
  const fail = (what: string) => `throw TypeError(${JSON.stringify(`${type.fullName}${what}`)})`;
  const lines = plan(type).map((p) => {
    const d = `d[${JSON.stringify(p.name)}]`;
    const m = prop(p.name);
    if (p.scalar === undefined) {
      subs.push(converterOf(p.message!));
      const sub = `c[${subs.length - 1}]`;
      const object = fail(`.${p.name}: object expected`);
      return p.field.repeated
        ? `if(${d}){if(!Array.isArray(${d}))${fail(`.${p.name}: array expected`)};${m}=Array(${d}.length);for(var i=0;i<${d}.length;++i){if(!o(${d}[i]))${object};${m}[i]=${sub}(${d}[i],q+1)}}`
        : `if(${d}!=null){if(!o(${d}))${object};${m}=${sub}(${d},q+1)}`;
    }
    if (p.field.resolvedType instanceof Enum) {
      // An open enum: its names, and any int32 number.
      enums.push((p.field.resolvedType as Enum).values);
      const e = `e[${enums.length - 1}]`;
      return `if(${d}!==0&&(typeof ${d}!=="string"||${e}[${d}]!==0)){if(typeof ${d}==="string"){if(Object.hasOwn(${e},${d}))${m}=${e}[${d}]}else if(typeof ${d}==="number"&&(${d}|0)===${d})${m}=${d}}`;
    }
    if (p.field.repeated)
      return `if(${d}){if(!Array.isArray(${d}))${fail(`.${p.name}: array expected`)};${m}=Array(${d}.length);for(var i=0;i<${d}.length;++i)${m}[i]=${scalarValue(p.scalar, `${d}[i]`)}}`;
    const set = p.scalar === 'bytes' ? `if(typeof ${d}==="string")${m}=b(${d});else if(${d}.length>=0)${m}=${d}` : `${m}=${scalarValue(p.scalar, d)}`;
    if (p.field.hasPresence) return `if(${d}!=null){${set}}`;
    // proto3 implicit presence: a default value is not kept.
    const present =
      p.scalar === 'string'
        ? `typeof ${d}!=="string"||${d}.length`
        : p.scalar === 'bytes'
          ? `${d}.length`
          : (types.long as Record<string, number>)[p.scalar] !== undefined
            ? `typeof ${d}==="object"?${d}.low||${d}.high:Number(${d})!==0`
            : `Number(${d})!==0`;
    return `if(${d}!=null){if(${present}){${set}}}`;
  });
  const source = `return function(d,q){
if(!o(d))${fail(': object expected')};
if(q>U.recursionLimit)throw Error("max depth exceeded");
var m=new P();
${lines.join('\n')}
return m}`;
  const base64 = (text: string) => {
    const out = util.newBuffer(util.base64.length(text));
    util.base64.decode(text, out, 0);
    return out;
  };
  const isObject = (v: unknown) => v && typeof v === 'object';
  compiled = new Function('U', 'L', 'c', 'e', 'b', 'o', 'n', 'P', source)(util, Long, subs, enums, base64, isObject, exactInteger, ctorOf(type)) as Convert;
  converters.set(type, compiled);
  return compiled;
}

const DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;
const MAX_DIGITS = { signed: '9223372036854775807', negative: '9223372036854775808', unsigned: '18446744073709551615' };

/**
 * A 64-bit integer that the mapping reads the same as protobufjs's Long of it, so it stays as
 * it is: a safe integer number, or a canonical decimal string in range. int64ToNumber, intValue
 * and durationMs (any-value.ts, time.ts) give the same number, text and difference for it as for
 * the Long, and reading it costs nothing, where Long.fromString was a third of the conversion.
 */
function exactInteger(v: unknown, unsigned: boolean): boolean {
  if (typeof v === 'number') return Number.isSafeInteger(v) && (v >= 0 || !unsigned);
  if (typeof v !== 'string' || !DECIMAL.test(v)) return false;
  const negative = v.charCodeAt(0) === 45;
  if (negative && unsigned) return false;
  const digits = negative ? v.slice(1) : v;
  if (digits.length < 19) return true;
  const max = unsigned ? MAX_DIGITS.unsigned : negative ? MAX_DIGITS.negative : MAX_DIGITS.signed;
  return digits.length < max.length || (digits.length === max.length && digits <= max);
}

/** One value of a scalar field, converted as fromObject converts it. */
function scalarValue(scalar: string, d: string): string {
  switch (scalar) {
    case 'string':
      return `String(${d})`;
    case 'bool':
      return `Boolean(${d})`;
    case 'double':
    case 'float':
      return `Number(${d})`;
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return `${d}|0`;
    case 'uint32':
    case 'fixed32':
      return `${d}>>>0`;
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return `(n(${d},false)?${d}:L.fromValue(${d},false))`;
    case 'uint64':
    case 'fixed64':
      return `(n(${d},true)?${d}:L.fromValue(${d},true))`;
    default:
      throw new Error(`plain OTLP messages: no conversion for ${scalar}`);
  }
}
