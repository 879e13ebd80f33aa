// Wrapper for server actions: a span per call and error reporting, while
// redirect()/notFound() pass through untouched.
import type { DevtrailClient } from '../client.js';
import { activeContext } from '../context/context-manager.js';
import { controlFlowStatus, isNextControlFlow } from './control-flow.js';
import { flushIfServerless, getNextClient, installNextAsyncContext } from './next-client.js';
import { activeOtelSpanContext } from '../otel/active-span.js';

export interface ServerActionOptions {
  client?: DevtrailClient;
  /** Flush before returning. Default: on serverless platforms. */
  flush?: boolean;
}

export function withServerAction<A extends unknown[], R>(
  name: string,
  action: (...args: A) => R | Promise<R>,
  options: ServerActionOptions = {},
): (...args: A) => Promise<R> {
  return async (...args) => {
    installNextAsyncContext();
    const client = options.client ?? getNextClient();
    const parent = activeContext()?.span ? undefined : activeOtelSpanContext();
    const span = client.startManualSpan(`action ${name}`, { parent, metadata: { 'next.action': name } });
    try {
      const result = await client.withSpan(span, () => action(...args));
      span.end();
      return result;
    } catch (err) {
      if (isNextControlFlow(err)) span.setAttribute('next.control_flow_status', controlFlowStatus(err)).end();
      else {
        client.withSpan(span, () => client.captureError(err, { severity: 'high', context: { 'next.action': name } }));
        span.recordError(err).end();
      }
      throw err;
    } finally {
      await flushIfServerless(client, options.flush);
    }
  };
}
