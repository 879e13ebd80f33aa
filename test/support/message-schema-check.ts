import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { envelopeFile, jsonSchemaFiles, MESSAGE_VERSIONS, type JsonSchema } from '@devtrail/contract/json-schema';

// Checks Kafka message values against the published JSON Schema (docs/schemas/), as a
// consumer in another language would: with a standard validator (ajv, draft 2020-12, formats on).

export type MessageCheck = (value: Buffer | string | null) => string | null;

/** A check of whole message values: null when the value is valid against its version's envelope schema, else why not. */
export function messageSchemaCheck(files: Record<string, JsonSchema> = jsonSchemaFiles()): MessageCheck {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv); // CommonJS module: its function is also its .default
  const byVersion = new Map(MESSAGE_VERSIONS.map((v) => [v as number, ajv.compile(files[envelopeFile(v)])]));
  return (value) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value === null ? 'null' : value.toString());
    } catch {
      return 'not JSON';
    }
    const validate = byVersion.get((parsed as { schema_version?: number } | null)?.schema_version as number);
    if (!validate) return `no schema for schema_version ${JSON.stringify((parsed as { schema_version?: unknown } | null)?.schema_version)}`;
    return validate(parsed) ? null : ajv.errorsText(validate.errors, { dataVar: 'message' });
  };
}
