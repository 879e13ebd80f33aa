// Node only (the "node" entry installs it): what happens to telemetry when the process ends
// (docs/sdk.md#when-the-process-ends).
//
// - An uncaught exception or an unhandled rejection is reported (severity critical) and every
//   client is flushed, within `shutdownTimeoutMs`, before the process exits as Node would have:
//   the error printed to stderr and exit code 1. Listening to these events turns Node's own exit
//   off, so the exit is ours to make, and only when the app has no handler of its own; an app that
//   handles them keeps its own behaviour and only gains the report.
// - SIGTERM and SIGINT flush within the same bound; when no other listener handles the signal,
//   the process then dies of it as it would have (the listener is removed and the signal raised
//   again), so its exit status is unchanged.
// - SIGTERM/SIGINT and the event loop emptying end the process's session (release health).
// - At 'exit', whatever is still queued cannot be sent any more: it is counted as dropped
//   (`droppedAtExit`) and said in one warning.
import type { DevtrailClient } from '../client.js';

type Signal = 'SIGTERM' | 'SIGINT';
const SIGNALS: Signal[] = ['SIGTERM', 'SIGINT'];

interface Attached {
  client: DevtrailClient;
  crashes: boolean;
  signals: boolean;
}

const KEY = Symbol.for('devtrail.sdk.process-hooks');
type State = { attached: Set<Attached>; installed: boolean; exiting: boolean };
const state = (): State => ((globalThis as { [KEY]?: State })[KEY] ??= { attached: new Set(), installed: false, exiting: false });

function crashClients(): Attached[] {
  return [...state().attached].filter((a) => a.crashes);
}

function timeoutOf(list: Attached[]): number {
  return Math.max(0, ...list.map((a) => a.client.options.shutdownTimeoutMs));
}

async function flushAll(list: Attached[]): Promise<void> {
  await Promise.all(list.map((a) => a.client.flush(a.client.options.shutdownTimeoutMs).catch(() => false)));
}

/** `--unhandled-rejections=…` as Node was started with; undefined is the default ("throw"). */
function rejectionMode(): string | undefined {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const flag = flags.find((f) => f.startsWith('--unhandled-rejections='));
  return flag?.slice('--unhandled-rejections='.length);
}

function printAsNodeDoes(err: unknown): void {
  const text = err instanceof Error ? (err.stack ?? String(err)) : `Uncaught ${typeof err === 'string' ? err : safeInspect(err)}`;
  process.stderr.write(`${text}\n`);
}

function safeInspect(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Errors reported already (strict mode raises one rejection as both events). */
const reported = new WeakSet<object>();

function report(list: Attached[], err: unknown, origin: string): void {
  if (err !== null && typeof err === 'object') {
    if (reported.has(err)) return;
    reported.add(err);
  }
  for (const a of list) a.client.captureError(err, { severity: 'critical', context: { mechanism: origin, handled: false } });
}

/** Exits as Node would have (the error on stderr, code 1), once every client flushed or the bound passed. */
function exitAfterFlush(list: Attached[], err: unknown): void {
  const s = state();
  if (s.exiting) return; // a second crash while flushing: the first one's exit is on its way
  s.exiting = true;
  const exit = (): void => {
    printAsNodeDoes(err);
    process.exit(1);
  };
  // The timer is a backstop: it keeps the process alive while flushing and exits even if a send hangs.
  const backstop = setTimeout(exit, timeoutOf(list) + 100);
  void flushAll(list).then(() => {
    clearTimeout(backstop);
    exit();
  });
}

const others = (event: string, ours: (...args: never[]) => void) => process.listeners(event as 'exit').filter((l) => l !== ours);

function onUncaught(err: unknown): void {
  const list = crashClients();
  report(list, err, 'uncaughtException');
  // The app handles uncaught exceptions itself: it decides whether the process goes on.
  if (others('uncaughtException', onUncaught).length > 0) return;
  exitAfterFlush(list, err);
}

function onRejection(reason: unknown): void {
  const list = crashClients();
  report(list, reason, 'unhandledRejection');
  const mode = rejectionMode();
  if (others('unhandledRejection', onRejection).length > 0 || mode === 'warn' || mode === 'none') return;
  if (mode === 'warn-with-error-code') {
    process.exitCode = 1;
    return;
  }
  // Node's default ("throw") raises the rejection as an uncaught exception: the app's handlers of that get it.
  const handlers = others('uncaughtException', onUncaught);
  if (handlers.length > 0) {
    for (const h of handlers) (h as (e: unknown, origin: string) => void)(reason, 'unhandledRejection');
    return;
  }
  exitAfterFlush(list, reason);
}

const signalHandlers = new Map<Signal, () => void>();

function onSignal(signal: Signal): void {
  const s = state();
  const list = [...s.attached].filter((a) => a.signals);
  const ours = signalHandlers.get(signal)!;
  const appHandles = others(signal, ours).length > 0;
  let raised = false;
  const raise = (): void => {
    // Dies of the signal as it would have without us (the app has no handler of its own).
    if (appHandles || raised) return;
    raised = true;
    process.removeListener(signal, ours);
    process.kill(process.pid, signal);
  };
  if (list.length === 0) {
    raise();
    return;
  }
  for (const a of list) a.client.endSession();
  const backstop = setTimeout(raise, timeoutOf(list) + 100);
  void flushAll(list).then(() => {
    clearTimeout(backstop);
    raise();
  });
}

/** The event loop emptied: the process's session ends here (flushed by the transport's own beforeExit, exit-flush.ts). */
function onBeforeExit(): void {
  for (const a of state().attached) a.client.endSession();
}

function onExit(): void {
  for (const a of state().attached) a.client.dropPendingAtExit();
}

function install(): void {
  const s = state();
  if (s.installed) return;
  s.installed = true;
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onRejection);
  for (const signal of SIGNALS) {
    const handler = (): void => onSignal(signal);
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }
  process.on('beforeExit', onBeforeExit);
  process.on('exit', onExit);
}

/** With no client left, Node's own behaviour comes back whole. */
function uninstall(): void {
  const s = state();
  if (!s.installed || s.attached.size > 0) return;
  s.installed = false;
  process.removeListener('uncaughtException', onUncaught);
  process.removeListener('unhandledRejection', onRejection);
  for (const [signal, handler] of signalHandlers) process.removeListener(signal, handler);
  signalHandlers.clear();
  process.removeListener('beforeExit', onBeforeExit);
  process.removeListener('exit', onExit);
}

/** Called by every client built on Node; `close()` detaches it. */
export function attachProcessHooks(client: DevtrailClient): () => void {
  const o = client.options;
  if (!o.captureUncaught && !o.flushOnSignals) return () => {};
  const entry: Attached = { client, crashes: o.captureUncaught, signals: o.flushOnSignals };
  state().attached.add(entry);
  install();
  return () => {
    state().attached.delete(entry);
    uninstall();
  };
}
