import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/**
 * @template T
 * @typedef {object} DataState
 * @property {T | undefined} data
 * @property {unknown} error
 * @property {boolean} loading
 */

/**
 * Loads data with an async function whenever `key` changes; stale answers (from an
 * older key) are dropped.
 * @template T
 * @param {() => T | Promise<T>} load
 * @param {unknown} key
 * @returns {DataState<T> & { reload: () => void }}
 */
export function useData(load, key) {
  const [state, setState] = useState(/** @type {DataState<T>} */ ({ data: undefined, error: null, loading: true }));
  const seq = useRef(0);
  const run = useCallback(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    Promise.resolve()
      .then(load)
      .then(
        (data) => mine === seq.current && setState({ data, error: null, loading: false }),
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
