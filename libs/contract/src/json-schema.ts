import { z } from 'zod';
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { EVENT_KINDS, KINDS, type EventKind } from '@devtrail/kinds';
import { MESSAGE_SHAPES, SCHEMA_VERSION } from './envelope.ts';
import { DELETION_SCHEMA_VERSION, deletionShape } from './deletions.ts';

export { incompatibilities, type Incompatibility, type JsonSchema } from './schema-compat.ts';
import type { JsonSchema } from './schema-compat.ts';

// JSON Schema (draft 2020-12) of the Kafka messages, for consumers in any language
// (docs/topics.md, "Schemas"): generated from the zod schemas the consumers decode with
// (the message shapes of envelope.ts, each kind's event schema), so the two cannot drift.
// Checked in under docs/schemas/ (`npm run openapi`) and served by the receiver at /schemas/.
//
//   envelope-v<N>.json   a message of schema version N, of any kind (anyOf, one branch per kind)
//   event-<kind>.json    one event's `data` of that kind
//
// Each file stands alone (its events in $defs), so a validator needs no other file.

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export type MessageVersion = keyof typeof MESSAGE_SHAPES;
/** The message versions devtrail's decoder reads; each has its envelope file. */
export const MESSAGE_VERSIONS = Object.keys(MESSAGE_SHAPES).map(Number) as MessageVersion[];

const eventName = (kind: EventKind) => `${kind[0].toUpperCase()}${kind.slice(1)}Event`;
export const envelopeFile = (version: MessageVersion) => `envelope-v${version}.json`;
export const eventFile = (kind: EventKind) => `event-${kind}.json`;
export const deletionFile = () => `deletion-v${DELETION_SCHEMA_VERSION}.json`;
/** The deletions topic, after the prefix (topics.ts). */
const DELETIONS_TOPIC_NAME = 'deletions';

/** A whole message of one kind and version: the decoder's message shape with the kind's event in place of unknown data. */
function messageOf(version: MessageVersion, kind: EventKind, data: z.ZodTypeAny): z.ZodTypeAny {
  if (version === 1) return MESSAGE_SHAPES[1].extend({ kind: z.literal(kind), data });
  return MESSAGE_SHAPES[2].extend({ kind: z.literal(kind), events: z.array(z.object({ event_id: MESSAGE_SHAPES[1].shape.event_id, data })) });
}

/** zod → JSON Schema through the OpenAPI 3.1 generator (whose schema objects are JSON Schema 2020-12); refs become $defs. */
function generate(root: (event: (kind: EventKind) => z.ZodTypeAny) => z.ZodTypeAny): JsonSchema {
  extendZodWithOpenApi(z); // idempotent: registering names a schema through .openapi()
  const r = new OpenAPIRegistry();
  const event = (kind: EventKind) => r.register(eventName(kind), KINDS[kind].event);
  r.register('Root', root(event));
  const { components } = new OpenApiGeneratorV31(r.definitions).generateComponents();
  const text = JSON.stringify(components?.schemas ?? {}).replaceAll('"#/components/schemas/', '"#/$defs/');
  const { Root, ...defs } = JSON.parse(text) as Record<string, JsonSchema>;
  return { ...Root, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
}

function file(name: string, title: string, description: string, schema: JsonSchema): JsonSchema {
  return { $schema: JSON_SCHEMA_DIALECT, $id: `urn:devtrail:schemas:${name}`, title, description, ...schema };
}

function envelopeSchema(version: MessageVersion): JsonSchema {
  const schema = generate((event) => z.union(EVENT_KINDS.map((k) => messageOf(version, k, event(k))) as unknown as [z.ZodTypeAny, z.ZodTypeAny]));
  const shape = version === 1 ? 'one event per message (receivers before schema version 2)' : "one message per accepted request and kind, carrying that request's events";
  return file(
    envelopeFile(version),
    `devtrail Kafka message, schema version ${version}`,
    `The value of a message on a devtrail topic whose dt-schema-version header is ${version}: ${shape}. Fields not listed here may be added; ignore them.`,
    schema,
  );
}

function eventSchema(kind: EventKind): JsonSchema {
  const description = `One ${kind} event's data, as every message version carries it (topic <prefix>${KINDS[kind].name}).`;
  return file(
    eventFile(kind),
    `devtrail ${kind} event`,
    description,
    generate(() => KINDS[kind].event),
  );
}

function deletionSchema(): JsonSchema {
  return file(
    deletionFile(),
    `devtrail deletion, schema version ${DELETION_SCHEMA_VERSION}`,
    `The value of a message on <prefix>${DELETIONS_TOPIC_NAME}: one deletion of stored events (docs/topics.md, "Deletions"). Fields not listed here may be added; ignore them.`,
    generate(() => deletionShape),
  );
}

/** Every published schema file by name, generated afresh. */
export function jsonSchemaFiles(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const v of MESSAGE_VERSIONS) out[envelopeFile(v)] = envelopeSchema(v);
  for (const k of EVENT_KINDS) out[eventFile(k)] = eventSchema(k);
  out[deletionFile()] = deletionSchema();
  return out;
}

/** What GET /schemas answers and docs/schemas/index.json holds: the current version and every file. */
export function jsonSchemaIndex(files: Record<string, JsonSchema> = jsonSchemaFiles()) {
  return {
    schema_version: SCHEMA_VERSION,
    dialect: JSON_SCHEMA_DIALECT,
    envelopes: Object.fromEntries(MESSAGE_VERSIONS.map((v) => [String(v), envelopeFile(v)])),
    events: Object.fromEntries(EVENT_KINDS.map((k) => [k, eventFile(k)])),
    /** Each kind's topic is `<KAFKA_TOPIC_PREFIX><name>` (docs/topics.md). */
    topics: Object.fromEntries(EVENT_KINDS.map((k) => [k, KINDS[k].name])),
    /** Deletions: their topic (after the prefix) and the file of each version. */
    deletions: { topic: DELETIONS_TOPIC_NAME, versions: { [String(DELETION_SCHEMA_VERSION)]: deletionFile() } },
    files: Object.keys(files),
  };
}
