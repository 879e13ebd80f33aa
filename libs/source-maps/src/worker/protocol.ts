import type { SymbolicatedFrame } from '../symbolicate.ts';

// The messages between the dashboard and its source-map worker (map-pool.ts, map-worker.ts).

/** Check an upload: the request body as it came (JSON text), parsed, the map decoded, then compressed. */
export interface CheckTask {
  type: 'check';
  body: Uint8Array;
}
export type CheckResult =
  | {
      ok: true;
      /** The body's other fields, as sent (the route's schema checks them). */
      fields: Record<string, unknown>;
      /** The map's own debug id ("debugId"), when it has one. */
      mapDebugId: string | null;
      /** The map's JSON text's size and its gzip. */
      bytes: number;
      gzip: Uint8Array;
    }
  | { ok: false; problem: 'json' | 'map' | 'budget'; message: string };

/** Symbolicate a stack: each file URL key with its stored map's id, and the gzip of those the worker does not hold. */
export interface SymbolicateTask {
  type: 'symbolicate';
  stack: string;
  maps: Array<{ key: string; id: string; gzip?: Uint8Array }>;
}
export interface SymbolicateResult {
  frames: SymbolicatedFrame[];
  /** Map ids the worker needed and was not sent (it dropped them since): ask again with them. */
  missing: string[];
  /** Map ids the worker holds decoded after this task. */
  held: string[];
  /** Maps left unused: their decoded size, estimated, is past the worker's budget. */
  refused: Array<{ id: string; reason: string }>;
}

export type Task = CheckTask | SymbolicateTask;
export type Reply = { seq: number; result: CheckResult | SymbolicateResult } | { seq: number; error: string };
