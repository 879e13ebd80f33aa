'use client';
// Client components for browser errors: a React error boundary that also
// installs window error/unhandledrejection reporting, and hooks for the same
// without the boundary. Plain createElement-free class code: no JSX build step.
import * as React from 'react';
import { installGlobalErrorHandlers } from '../browser/global-errors.js';
import type { DevtrailClient } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { CaptureErrorOptions } from '../types.js';
import { getBrowserClient } from './browser-client.js';

export interface ErrorFallbackProps {
  error: Error;
  /** Clears the error and renders the children again. */
  reset: () => void;
}

export interface DevtrailErrorBoundaryProps {
  /** Default: the page's shared browser client (NEXT_PUBLIC_DEVTRAIL_* env). */
  client?: DevtrailClient;
  /** Options for the shared browser client when it is created here. */
  options?: ClientOptions;
  fallback?: React.ReactNode | ((props: ErrorFallbackProps) => React.ReactNode);
  /** Also report window errors and unhandled rejections while mounted. Default true. */
  captureGlobalErrors?: boolean;
  children?: React.ReactNode;
}

interface State {
  error: Error | null;
}

export class DevtrailErrorBoundary extends React.Component<DevtrailErrorBoundaryProps, State> {
  override state: State = { error: null };
  private detach: (() => void) | undefined;

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  private get client(): DevtrailClient {
    return this.props.client ?? getBrowserClient(this.props.options);
  }

  override componentDidCatch(error: unknown, info: { componentStack?: string | null }): void {
    this.client.captureError(error, {
      severity: 'high',
      context: { source: 'react.error_boundary', component_stack: info.componentStack ?? undefined },
    });
  }

  override componentDidMount(): void {
    if (this.props.captureGlobalErrors !== false) this.detach = installGlobalErrorHandlers(this.client);
  }

  override componentWillUnmount(): void {
    this.detach?.();
  }

  reset = (): void => {
    this.setState({ error: null });
  };

  override render(): React.ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children ?? null;
    const { fallback } = this.props;
    return typeof fallback === 'function' ? fallback({ error, reset: this.reset }) : (fallback ?? null);
  }
}

/** Reports window errors and unhandled rejections while the calling component is mounted. */
export function useDevtrailErrorHandlers(client?: DevtrailClient): void {
  React.useEffect(() => installGlobalErrorHandlers(client ?? getBrowserClient()), [client]);
}

/** For Next.js error.tsx / global-error.tsx: reports the error they receive once. */
export function useReportError(error: unknown, options?: CaptureErrorOptions & { client?: DevtrailClient }): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: report each distinct error once, not on every option identity change.
  React.useEffect(() => {
    if (error) (options?.client ?? getBrowserClient()).captureError(error, { severity: 'high', ...options });
  }, [error]);
}
