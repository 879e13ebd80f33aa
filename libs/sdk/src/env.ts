// Runtime detection that is safe to evaluate in browsers, edge runtimes and Node.

export function readEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name];
  return value === undefined || value === '' ? undefined : value;
}

export function isBrowser(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
}

/** Platforms that freeze or kill the process right after a response, so batches must be short-lived. */
const SERVERLESS_MARKERS = ['AWS_LAMBDA_FUNCTION_NAME', 'VERCEL', 'NETLIFY', 'FUNCTION_TARGET', 'FUNCTIONS_WORKER_RUNTIME', 'K_SERVICE'];

export function isServerless(): boolean {
  return SERVERLESS_MARKERS.some((name) => readEnv(name) !== undefined);
}
