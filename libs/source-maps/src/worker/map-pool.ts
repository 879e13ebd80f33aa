import { Worker } from 'node:worker_threads';
import type { CheckResult, Reply, SymbolicateResult, Task } from './protocol.ts';

// The dashboard's side of the source-map worker (map-worker.ts): one thread, started when first
// needed, with a heap limit of its own; tasks run one at a time, each under a time limit. A task
// that runs out of memory or time ends the thread (the next task starts a new one) and fails with
// a MapBudgetError that says which; the process and its other requests go on. The queue is bounded:
// past it, a MapBudgetError('busy').

export interface MapBudget {
  /** The worker's heap limit (V8 old generation), MB. */
  heapMb: number;
  /** How much of that heap decoded maps may keep between tasks, MB. */
  cacheMb: number;
  /** One task's time limit, ms. */
  timeoutMs: number;
  /** Tasks waiting at most. */
  queue: number;
}

export class MapBudgetError extends Error {
  constructor(
    readonly kind: 'memory' | 'time' | 'busy' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  task: Task;
  transfer: ArrayBuffer[];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export interface MapPool {
  check(body: Uint8Array): Promise<CheckResult>;
  symbolicate(task: Omit<Extract<Task, { type: 'symbolicate' }>, 'type'>): Promise<SymbolicateResult>;
  /** Map ids the current thread holds decoded (empty after a restart). */
  held(): ReadonlySet<string>;
  close(): Promise<void>;
}

export function createMapPool(budget: MapBudget): MapPool {
  let worker: Worker | null = null;
  let ready = false;
  let held = new Set<string>();
  let seq = 0;
  let running: (Pending & { seq: number; timer: NodeJS.Timeout }) | null = null;
  const waiting: Pending[] = [];
  let closed = false;

  const start = () => {
    const w = new Worker(new URL('./entry.mjs', import.meta.url), {
      workerData: { cacheBytes: budget.cacheMb * 1024 * 1024, heapBytes: budget.heapMb * 1024 * 1024 },
      resourceLimits: { maxOldGenerationSizeMb: budget.heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, budget.heapMb / 8)) },
    });
    w.unref();
    w.on('message', (reply: Reply | 'ready') => {
      // Loaded (its TypeScript compiled): only now does a task's time start.
      if (reply === 'ready') {
        if (worker === w) {
          ready = true;
          next();
        }
        return;
      }
      if (!running || reply.seq !== running.seq) return;
      const r = running;
      finish();
      if ('error' in reply) r.reject(new MapBudgetError('failed', reply.error));
      else {
        if ('held' in reply.result) held = new Set(reply.result.held);
        r.resolve(reply.result);
      }
    });
    w.on('error', (err: Error & { code?: string }) => {
      const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      fail(w, new MapBudgetError(memory ? 'memory' : 'failed', memory ? `needs more than the ${budget.heapMb} MB the source-map worker may use` : err.message));
    });
    w.on('exit', () => fail(w, new MapBudgetError('failed', 'the source-map worker stopped')));
    return w;
  };

  const fail = (w: Worker, err: MapBudgetError) => {
    if (worker !== w) return;
    worker = null;
    // A worker that never came up fails what waits too (rather than start again and again).
    if (!ready) for (const p of waiting.splice(0)) p.reject(err);
    ready = false;
    held = new Set();
    const r = running;
    finish();
    r?.reject(err);
  };

  const finish = () => {
    if (running) clearTimeout(running.timer);
    running = null;
    next();
  };

  const next = () => {
    if (running || closed || waiting.length === 0) return;
    if (!worker) worker = start();
    if (!ready) return;
    const w = worker;
    const p = waiting.shift()!;
    const s = ++seq;
    running = {
      ...p,
      seq: s,
      timer: setTimeout(() => {
        fail(w, new MapBudgetError('time', `took longer than ${budget.timeoutMs} ms`));
        void w.terminate();
      }, budget.timeoutMs),
    };
    w.postMessage({ seq: s, task: p.task }, p.transfer);
  };

  const run = <T>(task: Task, transfer: ArrayBuffer[] = []): Promise<T> => {
    if (closed) return Promise.reject(new MapBudgetError('busy', 'closing'));
    if (waiting.length >= budget.queue) return Promise.reject(new MapBudgetError('busy', `${budget.queue} source-map tasks are waiting`));
    return new Promise<T>((resolve, reject) => {
      waiting.push({ task, transfer, resolve: resolve as (v: unknown) => void, reject });
      next();
    });
  };

  return {
    check: (body) => {
      // Handed over, not copied, when the bytes are a buffer of their own (a pooled one is copied first).
      const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
      return run<CheckResult>({ type: 'check', body: own }, [own.buffer as ArrayBuffer]);
    },
    symbolicate: (t) => run<SymbolicateResult>({ type: 'symbolicate', ...t }),
    held: () => held,
    async close() {
      closed = true;
      for (const p of waiting.splice(0)) p.reject(new MapBudgetError('busy', 'closing'));
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
