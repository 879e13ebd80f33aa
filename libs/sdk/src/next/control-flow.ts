// redirect(), notFound() and friends work by throwing errors tagged with a
// `digest`. They are navigation, not failures, and must not be reported.

const CONTROL_FLOW = /^(NEXT_REDIRECT|NEXT_NOT_FOUND|NEXT_HTTP_ERROR_FALLBACK|DYNAMIC_SERVER_USAGE|BAILOUT_TO_CLIENT_SIDE_RENDERING)/;

function digestOf(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' ? digest : undefined;
}

export function isNextControlFlow(error: unknown): boolean {
  return CONTROL_FLOW.test(digestOf(error) ?? '');
}

/** The HTTP status Next answers with for a control-flow error. */
export function controlFlowStatus(error: unknown): number {
  const digest = digestOf(error) ?? '';
  if (digest.startsWith('NEXT_REDIRECT')) return Number(digest.split(';')[3]) || 307;
  if (digest.startsWith('NEXT_NOT_FOUND')) return 404;
  if (digest.startsWith('NEXT_HTTP_ERROR_FALLBACK')) return Number(digest.split(';')[1]) || 404;
  return 200;
}
