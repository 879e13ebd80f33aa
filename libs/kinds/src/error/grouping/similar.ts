import { fingerprintParts } from './fingerprint.ts';
import type { ErrorGroup } from '../read.ts';

// "Similar issues" (docs/fingerprint.md, "Similar issues"): open groups that are likely the same
// bug as a group, offered for a merge. Two groups are similar when their latest reports' in-app
// frames overlap (half or more of the smaller set, by function and file), or when they read as
// one type and one stripped message. Computed in process over a bounded list of candidates
// (the caller's read), so it costs one grouping rule per candidate.

/** Candidates a similar-issues answer considers: the most recently seen groups. */
export const SIMILAR_SCAN = 200;
/** Similar groups one answer lists. */
export const SIMILAR_MAX = 10;

export interface Similar {
  fingerprint: string;
  /** Why: the frames they share, or the one message. */
  reason: 'frames' | 'message';
  /** Share of the smaller set of in-app frames both hold (1 for one message). */
  overlap: number;
}

function partsOf(g: Pick<ErrorGroup, 'latest'>) {
  const l = g.latest;
  return fingerprintParts({ error_message: l.error_message, stack_trace: l.stack_trace, context: l.error_type ? { 'exception.type': l.error_type } : undefined });
}

/** The candidates similar to `group`, most similar first (at most SIMILAR_MAX). */
export function similarGroups(group: Pick<ErrorGroup, 'fingerprint' | 'latest'>, candidates: Array<Pick<ErrorGroup, 'fingerprint' | 'latest'>>): Similar[] {
  const mine = partsOf(group);
  const myFrames = new Set(mine.frames.filter((f) => !f.startsWith('?')));
  const out: Similar[] = [];
  for (const c of candidates.slice(0, SIMILAR_SCAN)) {
    if (c.fingerprint === group.fingerprint) continue;
    const theirs = partsOf(c);
    const frames = new Set(theirs.frames.filter((f) => !f.startsWith('?')));
    const shared = [...frames].filter((f) => myFrames.has(f)).length;
    const smaller = Math.min(frames.size, myFrames.size);
    if (smaller > 0 && shared / smaller >= 0.5) out.push({ fingerprint: c.fingerprint, reason: 'frames', overlap: shared / smaller });
    else if (mine.message !== '' && theirs.message === mine.message && theirs.types[0] === mine.types[0])
      out.push({ fingerprint: c.fingerprint, reason: 'message', overlap: 1 });
  }
  return out.sort((a, b) => b.overlap - a.overlap || a.fingerprint.localeCompare(b.fingerprint)).slice(0, SIMILAR_MAX);
}
