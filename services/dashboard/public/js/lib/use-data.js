import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { recall, remember } from './page-cache.js';

/**
 * @template T
 * @typedef {object} DataState
 * @property {T | undefined} data
 * @property {unknown} error
 * @property {boolean} loading
 */

/**
 * Loads data with an async function whenever `key` changes; stale answers (from an
 * older key) are dropped. After Back or Forward, the data this URL showed is shown again
 * without loading (page-cache.js).
 * @template T
 * @param {() => T | Promise<T>} load
 * @param {unknown} key
 * @returns {DataState<T> & { reload: () => void }}
 */
export function useData(load, key) {
  const cacheKey = `${location.pathname}${location.search}|${String(key)}`;
  const cached = useRef(/** @type {T | undefined} */ (recall(cacheKey)));
  const [state, setState] = useState(
    /** @type {DataState<T>} */ (cached.current === undefined ? { data: undefined, error: null, loading: true } : { data: cached.current, error: null, loading: false }),
  );
  const seq = useRef(0);
  const run = useCallback(() => {
    const mine = ++seq.current;
    if (cached.current !== undefined) {
      cached.current = undefined; // shown once, as it was; the next change of key loads
      return;
    }
    setState((s) => ({ ...s, loading: true }));
    Promise.resolve()
      .then(load)
      .then(
        (data) => {
          if (mine !== seq.current) return;
          remember(cacheKey, data);
          setState({ data, error: null, loading: false });
        },
        (error) => mine === seq.current && setState({ data: undefined, error, loading: false }),
      );
  }, [key]);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/**
 * Calls fn every `ms` while `active`; stops on unmount.
 * @param {() => void} fn
 * @param {number} ms
 */
export function useInterval(fn, ms, active = true) {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    if (!active) return undefined;
    const t = setInterval(() => saved.current(), ms);
    return () => clearInterval(t);
  }, [ms, active]);
}
