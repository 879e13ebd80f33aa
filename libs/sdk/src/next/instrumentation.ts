// Helpers for a Next.js `instrumentation.ts`:
//   export { register, onRequestError } from '@devtrail/sdk/next';
// With no key configured both are harmless no-ops, so builds never break.
import type { DevtrailClient } from '../client.js';
import type { HeaderSource } from '../http/headers.js';
import type { ClientOptions } from '../options.js';
import { extractTraceContext } from '../trace-context.js';
import { isNextControlFlow } from './control-flow.js';
import { flushIfServerless, getNextClient, setNextClient, installNextAsyncContext } from './next-client.js';
import { activeOtelSpanContext } from '../otel/active-span.js';
import { createSpanExporter, type ReadableSpanLike, type SpanExporterLike } from '../otel/span-exporter.js';

export interface RegisterOptions extends ClientOptions {
  /** Use this client instead of creating one from options / env. */
  client?: DevtrailClient;
  /**
   * `registerOTel` from @vercel/otel (or any function taking the same config).
   * When given, it is called with this SDK's exporter so Next.js's own
   * OpenTelemetry spans reach /ingest/traces.
   */
  registerOTel?: (config: { serviceName: string; traceExporter: SpanExporterLike }) => unknown;
  /** Return false for OTel spans that should not be forwarded. */
  spanFilter?: (span: ReadableSpanLike) => boolean;
}

export interface RegisterResult {
  client: DevtrailClient;
  /** Pass as `traceExporter` to your own OpenTelemetry setup. */
  exporter: SpanExporterLike;
}

export function register(options: RegisterOptions = {}): RegisterResult {
  const { client: given, registerOTel, spanFilter, ...clientOptions } = options;
  installNextAsyncContext();
  const client = given ? setNextClient(given) : getNextClient(clientOptions);
  const exporter = createSpanExporter(client, { filter: spanFilter });
  registerOTel?.({ serviceName: client.options.service, traceExporter: exporter });
  return { client, exporter };
}

/** The request argument Next.js passes to onRequestError. */
export interface NextRequestErrorRequest {
  path: string;
  method: string;
  headers: HeaderSource;
}

/** The context argument Next.js passes to onRequestError. */
export interface NextRequestErrorContext {
  routerKind?: string;
  routePath?: string;
  routeType?: string;
  renderSource?: string;
  revalidateReason?: string;
  renderType?: string;
}

export async function onRequestError(error: unknown, request: NextRequestErrorRequest, context: NextRequestErrorContext = {}): Promise<void> {
  try {
    const client = getNextClient();
    if (!client.enabled || isNextControlFlow(error)) return;
    const incoming = extractTraceContext(request.headers);
    client.captureError(error, {
      severity: 'high',
      // Next's own request span (when OTel is on) is the trace the exported spans belong to.
      traceId: activeOtelSpanContext()?.traceId ?? incoming.traceId,
      context: {
        'http.request.method': request.method,
        'url.path': request.path,
        request_id: incoming.requestId,
        'next.router_kind': context.routerKind,
        'next.route_path': context.routePath,
        'next.route_type': context.routeType,
        'next.render_source': context.renderSource,
        'next.revalidate_reason': context.revalidateReason,
        digest: (error as { digest?: unknown } | null)?.digest,
      },
    });
    await flushIfServerless(client);
  } catch {
    // reporting must never turn into a second error
  }
}
