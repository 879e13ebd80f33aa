// @devtrail/sdk/next: instrumentation helpers, route-handler and server-action
// wrappers, the OTel-shaped span exporter and the browser error boundary.
// Imports nothing Node-only, so it is safe in the edge runtime and in client bundles, and
// nothing of React: the error boundary and its hooks are @devtrail/sdk/next/react (react.ts),
// so a server that loads this entry needs no React.
export { register, onRequestError } from './instrumentation.js';
export type { RegisterOptions, RegisterResult, NextRequestErrorRequest, NextRequestErrorContext } from './instrumentation.js';
export { withRouteHandler, type RouteHandlerOptions } from './route-handler.js';
export { withServerAction, type ServerActionOptions } from './server-action.js';
export {
  createSpanExporter,
  hrTimeToMs,
  type SpanExporterLike,
  type ReadableSpanLike,
  type ExportResultLike,
  type SpanExporterOptions,
  type HrTime,
} from '../otel/span-exporter.js';
export { getNextClient, setNextClient } from './next-client.js';
export { getBrowserClient } from './browser-client.js';
export { isNextControlFlow } from './control-flow.js';
