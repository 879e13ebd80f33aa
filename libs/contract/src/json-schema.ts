import { z } from 'zod';
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { EVENT_KINDS, KINDS, kindOf, type EventKind } from '@devtrail/kinds';
import { MESSAGE_SHAPES, NEWEST_VERSION } from './envelope.ts';
import { AS_SENT_VERSION } from './as-sent.ts';
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
//   request-<kind>.json  the request body a version-3 message of that kind carries as sent
//
// Each file stands alone (its events in $defs), so a validator needs no other file.

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export type MessageVersion = keyof typeof MESSAGE_SHAPES | typeof AS_SENT_VERSION;
/** The message versions devtrail's decoder reads; each has its envelope file. */
export const MESSAGE_VERSIONS = [...(Object.keys(MESSAGE_SHAPES).map(Number) as Array<keyof typeof MESSAGE_SHAPES>), AS_SENT_VERSION] as MessageVersion[];
/** The kinds whose requests may go to Kafka as sent (version 3: kind.ts `asSent`), and the field of a request that holds its records. */
export const AS_SENT_KINDS = EVENT_KINDS.filter((k) => kindOf(k).asSent);

const capital = (kind: EventKind) => `${kind[0].toUpperCase()}${kind.slice(1)}`;
const eventName = (kind: EventKind) => `${capital(kind)}Event`;
const requestName = (kind: EventKind) => `${capital(kind)}Request`;
export const envelopeFile = (version: MessageVersion) => `envelope-v${version}.json`;
export const eventFile = (kind: EventKind) => `event-${kind}.json`;
export const requestFile = (kind: EventKind) => `request-${kind}.json`;
export const deletionFile = () => `deletion-v${DELETION_SCHEMA_VERSION}.json`;
/** The deletions topic, after the prefix (topics.ts). */
const DELETIONS_TOPIC_NAME = 'deletions';

/** A whole message of one kind and version: the decoder's message shape with the kind's event in place of unknown data. */
function messageOf(version: MessageVersion, kind: EventKind, data: z.ZodTypeAny): z.ZodTypeAny {
  if (version === 1) return MESSAGE_SHAPES[1].extend({ kind: z.literal(kind), data });
  return MESSAGE_SHAPES[2].extend({ kind: z.literal(kind), events: z.array(z.object({ event_id: MESSAGE_SHAPES[1].shape.event_id, data })) });
}

/** zod → JSON Schema through the OpenAPI 3.1 generator (whose schema objects are JSON Schema 2020-12); refs become $defs. */
function generate(root: (event: (kind: EventKind) => z.ZodTypeAny, request: (kind: EventKind) => z.ZodTypeAny) => z.ZodTypeAny): JsonSchema {
  extendZodWithOpenApi(z); // idempotent: registering names a schema through .openapi()
  const r = new OpenAPIRegistry();
  const event = (kind: EventKind) => r.register(eventName(kind), KINDS[kind].event);
  const request = (kind: EventKind) => r.register(requestName(kind), kindOf(kind).request as unknown as z.ZodTypeAny);
  r.register('Root', root(event, request));
  const { components } = new OpenApiGeneratorV31(r.definitions).generateComponents();
  const text = JSON.stringify(components?.schemas ?? {}).replaceAll('"#/components/schemas/', '"#/$defs/');
  const { Root, ...defs } = JSON.parse(text) as Record<string, JsonSchema>;
  return { ...Root, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
}

function file(name: string, title: string, description: string, schema: JsonSchema): JsonSchema {
  return { $schema: JSON_SCHEMA_DIALECT, $id: `urn:devtrail:schemas:${name}`, title, description, ...schema };
}

/** Version 3: the request as sent, whose kind is the dt-kind header: one branch per kind that has the form. */
function asSentSchema(): JsonSchema {
  // Each kind's request registered by name (the root that refers to them is left out).
  const { $defs } = generate((_event, request) => z.object(Object.fromEntries(AS_SENT_KINDS.map((k) => [k, request(k)]))));
  const description =
    `The value of a message on a devtrail topic whose dt-schema-version header is ${AS_SENT_VERSION}: a request exactly as it was sent to its kind's route ` +
    '(its kind is the dt-kind header; request-<kind>.json alone), its facts in headers (dt-project-id, dt-received-at, dt-event-ids, dt-event-count, ' +
    "dt-retention-days, dt-scrub; docs/topics.md). Absent fields take the API's defaults, an absent timestamp the dt-received-at header. Fields not listed here may be added; ignore them.";
  return file(envelopeFile(AS_SENT_VERSION), `devtrail Kafka message, schema version ${AS_SENT_VERSION}`, description, {
    anyOf: AS_SENT_KINDS.map((k) => ({ $ref: `#/$defs/${requestName(k)}` })),
    $defs: $defs as JsonSchema,
  });
}

function requestSchema(kind: EventKind): JsonSchema {
  return file(
    requestFile(kind),
    `devtrail ${kind} request, as a version-${AS_SENT_VERSION} message carries it`,
    `The body of a request to ${kindOf(kind).path} (docs/api.md) as a message of dt-schema-version ${AS_SENT_VERSION} on topic <prefix>${KINDS[kind].name} carries it: each item of \`${kindOf(kind).batchField ?? '(the body)'}\` is one event, in the order of dt-event-ids.`,
    generate((_event, request) => request(kind)),
  );
}

function envelopeSchema(version: MessageVersion): JsonSchema {
  if (version === AS_SENT_VERSION) return asSentSchema();
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
  for (const k of AS_SENT_KINDS) out[requestFile(k)] = requestSchema(k);
  out[deletionFile()] = deletionSchema();
  return out;
}

/** What GET /schemas answers and docs/schemas/index.json holds: the current version and every file. */
export function jsonSchemaIndex(files: Record<string, JsonSchema> = jsonSchemaFiles()) {
  return {
    schema_version: NEWEST_VERSION,
    dialect: JSON_SCHEMA_DIALECT,
    /** The JSON envelopes (their kind is in the value, one anyOf branch per kind). */
    envelopes: Object.fromEntries(MESSAGE_VERSIONS.filter((v) => v !== AS_SENT_VERSION).map((v) => [String(v), envelopeFile(v)])),
    events: Object.fromEntries(EVENT_KINDS.map((k) => [k, eventFile(k)])),
    /**
     * Requests as sent (docs/topics.md, "Version 3"): the version, its file (a whole value, its kind
     * the dt-kind header), and per kind that has the form, its request's file and the field whose items are its events.
     */
    as_sent: {
      version: AS_SENT_VERSION,
      envelope: envelopeFile(AS_SENT_VERSION),
      kinds: Object.fromEntries(AS_SENT_KINDS.map((k) => [k, { file: requestFile(k), records: kindOf(k).batchField ?? null }])),
    },
    /** Each kind's topic is `<KAFKA_TOPIC_PREFIX><name>` (docs/topics.md). */
    topics: Object.fromEntries(EVENT_KINDS.map((k) => [k, KINDS[k].name])),
    /** Deletions: their topic (after the prefix) and the file of each version. */
    deletions: { topic: DELETIONS_TOPIC_NAME, versions: { [String(DELETION_SCHEMA_VERSION)]: deletionFile() } },
    files: Object.keys(files),
  };
}
