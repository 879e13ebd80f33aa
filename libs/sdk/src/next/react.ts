// @devtrail/sdk/next/react: the browser error boundary and its hooks, the only part of the
// Next.js helpers that needs React (an optional peer dependency), apart so that
// @devtrail/sdk/next loads without it.
export {
  DevtrailErrorBoundary,
  useDevtrailErrorHandlers,
  useReportError,
  type DevtrailErrorBoundaryProps,
  type ErrorFallbackProps,
} from './error-boundary.js';
