import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { jsonSchemaFiles, jsonSchemaIndex } from '@devtrail/contract/json-schema';
import { json, sameKeys, type ApiDocs } from '@devtrail/http/api-docs';

// The JSON Schema of the Kafka messages (docs/topics.md, "Schemas"), served without
// authentication beside the OpenAPI document, so a consumer in any language can fetch the
// schema of the receiver it reads from. The same files are checked in under docs/schemas/.

export const SCHEMAS_PATH = '/schemas';
const SCHEMA_MEDIA_TYPE = 'application/schema+json';

export function registerSchemaRoutes(app: FastifyInstance): void {
  const files = jsonSchemaFiles();
  const index = jsonSchemaIndex(files);
  app.get(SCHEMAS_PATH, async () => index);
  // The index under its file name too, as docs/schemas/ holds it (a folder and a URL read alike).
  app.get(`${SCHEMAS_PATH}/index.json`, async () => index);
  for (const [name, schema] of Object.entries(files)) {
    const text = JSON.stringify(schema);
    app.get(`${SCHEMAS_PATH}/${name}`, async (_req, reply) => reply.type(SCHEMA_MEDIA_TYPE).send(text));
  }
}

export function documentSchemas({ registry: r }: ApiDocs) {
  const files = jsonSchemaFiles();
  const index = z.object({
    schema_version: z
      .number()
      .int()
      .openapi({ description: 'The newest message version receivers write (header dt-schema-version); they write older ones too (docs/topics.md).' }),
    dialect: z.string().openapi({ example: 'https://json-schema.org/draft/2020-12/schema' }),
    envelopes: z.record(z.string()).openapi({ description: 'The file of each JSON envelope version a consumer may meet.', example: { '2': 'envelope-v2.json' } }),
    events: z.record(z.string()).openapi({ description: "Each kind's event file.", example: { log: 'event-log.json' } }),
    as_sent: z.object({ version: z.number().int(), envelope: z.string(), kinds: z.record(z.object({ file: z.string(), records: z.string().nullable() })) }).openapi({
      description:
        'Requests that go to Kafka as they were sent (docs/topics.md, "Version 3"): their message version, its file (a whole value; its kind is the dt-kind header), and per kind the request\'s file and the field whose items are its events.',
      example: { version: 3, envelope: 'envelope-v3.json', kinds: { log: { file: 'request-log.json', records: 'logs' } } },
    }),
    topics: z.record(z.string()).openapi({ description: "Each kind's topic, after the topic prefix (KAFKA_TOPIC_PREFIX, default devtrail.).", example: { log: 'logs' } }),
    deletions: z.object({ topic: z.string(), versions: z.record(z.string()) }).openapi({
      description: 'The deletions topic (after the prefix) and the file of each deletion version.',
      example: { topic: 'deletions', versions: { '1': 'deletion-v1.json' } },
    }),
    files: z.array(z.string()).openapi({ description: `Every file, each served at ${SCHEMAS_PATH}/<file>.` }),
  });
  sameKeys<z.infer<typeof index>, ReturnType<typeof jsonSchemaIndex>>(true);
  const indexSchema = r.register('SchemaIndex', index);
  r.registerPath({
    method: 'get',
    path: SCHEMAS_PATH,
    tags: ['schemas'],
    summary: 'The JSON Schema files of the Kafka messages',
    responses: { 200: { description: 'Which file describes which message version and kind.', ...json(indexSchema) } },
  });
  r.registerPath({
    method: 'get',
    path: `${SCHEMAS_PATH}/index.json`,
    tags: ['schemas'],
    summary: `The same index as ${SCHEMAS_PATH}, under its file name`,
    responses: { 200: { description: 'Which file describes which message version and kind.', ...json(indexSchema) } },
  });
  const schema = r.register('JsonSchemaDocument', z.object({ $schema: z.string(), $id: z.string(), title: z.string() }).passthrough());
  for (const [name, doc] of Object.entries(files)) {
    r.registerPath({
      method: 'get',
      path: `${SCHEMAS_PATH}/${name}`,
      tags: ['schemas'],
      summary: String(doc.title),
      description: String(doc.description),
      responses: { 200: { description: 'A JSON Schema (draft 2020-12) document; it needs no other file.', content: { [SCHEMA_MEDIA_TYPE]: { schema } } } },
    });
  }
  return {
    name: 'schemas',
    description:
      'No authentication. JSON Schema of the messages on the Kafka topics, for consumers in any language (docs/topics.md); also checked in under docs/schemas/.',
  };
}
