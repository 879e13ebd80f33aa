import { httpError } from '@devtrail/http';

// How many log exports run at once (docs/api.md, "GET /api/projects/:id/logs/export"): each holds
// a page of logs and a stream's buffer while its client downloads, for as long as the client
// takes. One per project (a second is a 429 until the first ends), a few per process (503).

export const EXPORT_SLOTS = { perProject: 1, perProcess: 4 } as const;

export const EXPORT_BUSY = 'An export of this project is running: one at a time (retry when it ends)';
export const EXPORTS_BUSY = `${EXPORT_SLOTS.perProcess} exports are running: retry later`;

export interface ExportSlots {
  /** A slot for one export of the project, released by the function it answers (once); an HttpError when none is free. */
  take(projectId: string): () => void;
}

export function exportSlots(limits: { perProject: number; perProcess: number } = EXPORT_SLOTS): ExportSlots {
  const running = new Map<string, number>();
  let all = 0;
  return {
    take(projectId) {
      const mine = running.get(projectId) ?? 0;
      if (mine >= limits.perProject) throw httpError(429, EXPORT_BUSY, { 'retry-after': '5' });
      if (all >= limits.perProcess) throw httpError(503, EXPORTS_BUSY, { 'retry-after': '5' });
      running.set(projectId, mine + 1);
      all++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        all--;
        const left = (running.get(projectId) ?? 1) - 1;
        if (left > 0) running.set(projectId, left);
        else running.delete(projectId);
      };
    },
  };
}
