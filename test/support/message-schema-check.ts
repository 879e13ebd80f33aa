import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { envelopeFile, jsonSchemaFiles, MESSAGE_VERSIONS, type JsonSchema } from '@devtrail/contract/json-schema';

// Checks Kafka message values against the published JSON Schema (docs/schemas/), as a
// consumer in another language would: with a standard validator (ajv, draft 2020-12, formats on).

export type MessageCheck = (value: Buffer | string | null, headers?: Record<string, string>) => string | null;

/**
 * A check of whole message values: null when the value is valid against its version's envelope
 * schema, else why not. The version is the dt-schema-version header when given (a version-3
 * value is a request as sent, with no version of its own), else the value's schema_version.
 */
export function messageSchemaCheck(files: Record<string, JsonSchema> = jsonSchemaFiles()): MessageCheck {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv); // CommonJS module: its function is also its .default
  const byVersion = new Map(MESSAGE_VERSIONS.map((v) => [v as number, ajv.compile(files[envelopeFile(v)])]));
  return (value, headers) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value === null ? 'null' : value.toString());
    } catch {
      return 'not JSON';
    }
    const header = headers?.['dt-schema-version'];
    const version = header !== undefined ? Number(header) : (parsed as { schema_version?: number } | null)?.schema_version;
    const validate = byVersion.get(version as number);
    if (!validate) return `no schema for schema_version ${JSON.stringify(header ?? (parsed as { schema_version?: unknown } | null)?.schema_version)}`;
    return validate(parsed) ? null : ajv.errorsText(validate.errors, { dataVar: 'message' });
  };
}
