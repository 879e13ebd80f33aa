import { attributesToObject, stringAttr } from './any-value.ts';
import type { Resource } from './otlp-types.ts';

// Resource attributes -> devtrail's shared top-level fields (service, environment, release). What the table
// does not map is kept, as sent, under metadata "otel.resource". docs/otlp.md.

export const RESOURCE_FIELDS = {
  service: ['service.name'],
  // deployment.environment.name is the current semantic convention; deployment.environment the older one.
  environment: ['deployment.environment.name', 'deployment.environment'],
  release: ['service.version'],
} as const;

const MAPPED = new Set<string>(Object.values(RESOURCE_FIELDS).flat());

export interface SharedFields {
  service?: string;
  environment?: string;
  release?: string;
}

export interface MappedResource {
  shared: SharedFields;
  /** The resource attributes not mapped to shared fields; undefined when none. */
  rest: Record<string, unknown> | undefined;
}

export function mapResource(resource: Resource | null | undefined): MappedResource {
  const attrs = attributesToObject(resource?.attributes);
  const first = (keys: readonly string[]) => keys.map((k) => stringAttr(attrs, k)).find((v) => v !== undefined && v !== '');
  const shared: SharedFields = {};
  const service = first(RESOURCE_FIELDS.service);
  const environment = first(RESOURCE_FIELDS.environment);
  const release = first(RESOURCE_FIELDS.release);
  // Absent fields stay absent, so the native schema's defaults apply ("unknown", "production").
  if (service !== undefined) shared.service = service;
  if (environment !== undefined) shared.environment = environment;
  if (release !== undefined) shared.release = release;
  const rest = Object.fromEntries(Object.entries(attrs).filter(([k]) => !MAPPED.has(k)));
  return { shared, rest: Object.keys(rest).length > 0 ? rest : undefined };
}
