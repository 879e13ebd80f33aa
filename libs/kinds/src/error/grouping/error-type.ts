// An error report's type (docs/fingerprint.md, "The error type"), in this order: the type
// the sender named (OTLP's exception.type, the SDK's context.error_type), the stack's
// exception line (its first line; a Python traceback's line after its last frame; Ruby's
// "file:line:in 'm': message (Type)"), then the message's own "Type: …". Browsers' and
// runtimes' prefixes ("Uncaught ", "Uncaught (in promise) ") are not part of it.

// "TypeError", "errors.NotFound", "Foo::Bar": each qualifier ends with its separator, so the
// pattern cannot backtrack exponentially; and it only ever sees a short prefix.
const TYPE_LINE = /^\s*((?:[A-Za-z_$][\w$]*(?:\.|::?|\+))*[A-Za-z_$][\w$]*)(?::\s|:$)/;
const RUBY_LINE = /:in [`'][^'`]*'?: .*\(([A-Z][\w]*(?:::[A-Z][\w]*)*)\)\s*$/;
const PREFIX = /^\s*(?:Uncaught(?: \(in promise\))?|Unhandled(?: promise)? rejection:?|Unhandled exception\.|Exception in thread "[^"]{0,100}")\s+/i;
const SCAN_CHARS = 200;
const TYPE_CHARS = 200;

/** The sender's own type attributes, read before the stack: OTLP's, then the SDK's. */
export const TYPE_KEYS = ['exception.type', 'error_type'] as const;

function typeIn(line: string): string | undefined {
  const head = line.slice(0, SCAN_CHARS).replace(PREFIX, '');
  return TYPE_LINE.exec(head)?.[1] ?? RUBY_LINE.exec(line.slice(0, 500))?.[1];
}

const PY_FRAME = /^\s+File "/;

/** The exception line of a stack: Python prints it after its last frame, every other runtime first. */
function exceptionLine(lines: string[]): string | undefined {
  if (!/^Traceback \(most recent call last\)/.test(lines[0] ?? '')) return lines[0];
  let last = -1;
  for (let i = 0; i < lines.length; i++) if (PY_FRAME.test(lines[i])) last = i;
  // After the last frame: its source line (indented), then the exception line.
  for (let i = last + 1; i < lines.length; i++) if (!/^\s/.test(lines[i])) return lines[i];
  return lines[lines.length - 1];
}

// What the SDK names the type of a thrown value that is not an Error (its typeof): no type.
const NOT_A_TYPE = new Set(['string', 'number', 'bigint', 'boolean', 'symbol', 'undefined', 'object', 'function']);

function senderType(context: Record<string, unknown> | undefined): string | undefined {
  for (const k of TYPE_KEYS) {
    const v = context?.[k];
    if (typeof v === 'string' && v.trim() !== '' && !NOT_A_TYPE.has(v.trim())) return v.trim().slice(0, TYPE_CHARS);
  }
  return undefined;
}

/** The report's error type, else "Error". */
export function errorTypeOf(stack: string, message: string, context?: Record<string, unknown>): string {
  const given = senderType(context);
  if (given) return given;
  const first = /^\s*(\S[^\n]*)/.exec(stack.slice(0, 2000))?.[1];
  // Only a Python traceback needs more than the first line.
  const line = first?.startsWith('Traceback (most recent call last)')
    ? exceptionLine(
        stack
          .slice(0, 200_000)
          .split('\n', 2000)
          .filter((l) => l.trim() !== ''),
      )
    : first;
  return (line !== undefined ? typeIn(line) : undefined) ?? typeIn(message) ?? 'Error';
}

/** The type as grouping sees it: its last name (psycopg2.OperationalError and OperationalError are one type). */
export function typeName(type: string): string {
  const parts = type.split(/\.|::|\+/);
  return parts[parts.length - 1] || type;
}
