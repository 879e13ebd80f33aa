import { useEffect, useState } from 'preact/hooks';
import { setQuery } from './router.js';
import { boundsOf, rangeParams, relativeMs } from './time-range.js';

// A page's default range fits the data when there is little of it (docs/dashboard.md, "Time
// range"): when the URL names no range and the page's read finds nothing in the default one, the
// page takes the smallest wider preset that holds some of its data. A range the user chose (in
// the URL, carried from tab to tab) is never changed.

/** The presets tried in turn, smallest first. */
export const WIDER = ['7d', '30d'];

/** Whether the URL leaves the range to the page. @param {URLSearchParams} query */
export const rangeIsDefault = (query) => !query.get('range') && !query.get('from');

/**
 * Widens the page's default range to fit its data; true while the wider presets are being
 * tried, when the page should not yet say that its range holds nothing.
 * @param {URLSearchParams} query the page's URL parameters
 * @param {string} key what the page shows (its project): tried once for each
 * @param {boolean} empty the page's read in its current range answered, with nothing
 * @param {(bounds: { from: number, to: number }) => Promise<boolean>} holds whether the page's read finds anything in these bounds
 */
export function useFittedRange(query, key, empty, holds) {
  const fits = rangeIsDefault(query) && empty;
  const [tried, setTried] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    if (!fits || tried === key) return undefined;
    let gone = false;
    void (async () => {
      for (const id of WIDER) {
        const found = await holds(boundsOf({ kind: 'relative', id, ms: /** @type {number} */ (relativeMs(id)) })).catch(() => false);
        if (gone) return;
        // Replaces the URL's entry: Back does not return to the empty default.
        if (found) return setQuery(rangeParams({ kind: 'relative', id, ms: 0 }));
      }
      setTried(key);
    })();
    return () => {
      gone = true;
    };
  }, [fits, key]);
  return fits && tried !== key;
}
