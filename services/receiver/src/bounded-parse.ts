import { z, type SafeParseReturnType, type ZodTypeAny } from 'zod';

// zod checks an array's length but then still parses every element, and a 5 MB body of
// `{}` is 1.7 million elements, each refused with its own issues: tens of seconds of work
// and a 400 body of hundreds of megabytes. So an array longer than its schema's maximum is
// cut to one element past it before zod sees it: the answer is the same 400 (zod's own
// "Array must contain at most N element(s)" issue, and the issues of the elements kept),
// for the work of N + 1 elements.

type Path = Array<string | number>;

/** The schema under optional, default, nullable, refinements and transforms. */
function unwrap(schema: ZodTypeAny): ZodTypeAny {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
    else if (s instanceof z.ZodDefault) s = s.removeDefault();
    else if (s instanceof z.ZodEffects) s = s.innerType();
    else if (s instanceof z.ZodPipeline) s = s._def.in;
    else return s;
  }
}

/** Where the data holds an array longer than the schema allows (objects and unions followed, array elements not). */
function oversized(schema: ZodTypeAny, data: unknown, path: Path, out: Array<{ path: Path; max: number }>): void {
  const s = unwrap(schema);
  if (s instanceof z.ZodArray) {
    const max = s._def.maxLength?.value;
    if (Array.isArray(data) && max !== undefined && data.length > max) out.push({ path, max });
  } else if (s instanceof z.ZodObject) {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
    for (const [key, field] of Object.entries(s.shape as Record<string, ZodTypeAny>)) {
      if (Object.hasOwn(data, key)) oversized(field, (data as Record<string, unknown>)[key], [...path, key], out);
    }
  } else if (s instanceof z.ZodUnion) {
    for (const option of s.options as ZodTypeAny[]) oversized(option, data, path, out);
  }
}

/** A copy of data with the value at path replaced (only the objects on the way are copied). */
function replaced(data: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = { ...(data as Record<string, unknown>) };
  copy[head] = replaced(copy[head], rest, value);
  return copy;
}

function valueAt(data: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], data);
}

/** schema.safeParse(data), with every over-long array cut to its maximum + 1 first. */
export function boundedSafeParse<T extends ZodTypeAny>(schema: T, data: unknown): SafeParseReturnType<unknown, z.output<T>> {
  const found: Array<{ path: Path; max: number }> = [];
  oversized(schema, data, [], found);
  let input = data;
  for (const { path, max } of found) input = replaced(input, path, (valueAt(input, path) as unknown[]).slice(0, max + 1));
  return schema.safeParse(input);
}
