import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

// What a request asks for beyond its SQL, sorted the way ClickHouse's
// HTTPHandler sorts URL (and multipart form) parameters.
export interface RequestParams {
  query: string;
  database?: string;
  defaultFormat?: string;
  queryId: string;
  // `param_<name>` values, verbatim: the engine parses them as the placeholder's type.
  queryParams: Record<string, string>;
  // Engine settings to apply for this request only.
  settings: Map<string, string>;
  readonly: boolean;
  enableHttpCompression: boolean;
  compressionLevel?: number;
  addCorsHeader: boolean;
  // ClickHouse's own block compression (`compress=1` / `decompress=1`).
  nativeCompression: boolean;
}

// Parameters the server consumes itself and never treats as settings.
const RESERVED = new Set([
  'query', 'database', 'default_format', 'role',
  'compress', 'decompress', 'user', 'password', 'quota_key', 'query_id', 'stacktrace',
  'buffer_size', 'wait_end_of_query', 'session_id', 'session_timeout', 'session_check',
  'client_protocol_version', 'close_session',
]);

// Real settings that only steer the HTTP layer, so there is nothing to apply to
// the engine. `readonly` is enforced here rather than SET: the engine connection
// is shared, and readonly cannot be switched back off once set.
const HTTP_LAYER_SETTINGS = new Set([
  'readonly', 'enable_http_compression', 'http_zlib_compression_level', 'add_http_cors_header',
  'send_progress_in_http_headers', 'http_headers_progress_interval_ms', 'http_response_buffer_size',
  'http_wait_end_of_query', 'http_write_exception_in_output_format', 'cancel_http_readonly_queries_on_client_close',
  'http_native_compression_disable_checksumming_on_decompress',
]);

const truthy = (value: string | undefined) => value !== undefined && value !== '0' && value.toLowerCase() !== 'false';

export function parseRequestParams(
  entries: Iterable<[string, string]>,
  headers: IncomingHttpHeaders,
  method: string,
): RequestParams {
  const all = new Map<string, string>();
  for (const [key, value] of entries) if (key !== '') all.set(key, value);

  const queryParams: Record<string, string> = {};
  const settings = new Map<string, string>();
  for (const [key, value] of all) {
    if (key.startsWith('param_')) queryParams[key.slice('param_'.length)] = value;
    else if (!RESERVED.has(key) && !HTTP_LAYER_SETTINGS.has(key)) settings.set(key, value);
  }
  const header = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value) || undefined;
  };
  const level = all.get('http_zlib_compression_level');
  return {
    query: all.get('query') ?? '',
    // Headers win over URL parameters for these two, as in HTTPHandler.
    database: header('x-clickhouse-database') ?? (all.get('database') || undefined),
    defaultFormat: header('x-clickhouse-format') ?? (all.get('default_format') || undefined),
    queryId: all.get('query_id') || header('x-clickhouse-query-id') || randomUUID(),
    queryParams,
    settings,
    // GET implies readonly=2 on the server.
    readonly: method === 'GET' || method === 'HEAD' || truthy(all.get('readonly')),
    enableHttpCompression: truthy(all.get('enable_http_compression')),
    compressionLevel: level !== undefined && /^-?\d+$/.test(level) ? Number(level) : undefined,
    addCorsHeader: truthy(all.get('add_http_cors_header')),
    nativeCompression: truthy(all.get('compress')) || truthy(all.get('decompress')),
  };
}
