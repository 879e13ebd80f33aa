import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/**
 * Loads data with an async function whenever `key` changes; stale answers (from an
 * older key) are dropped. Returns { data, error, loading, reload }.
 */
export function useData(load, key) {
  const [state, setState] = useState({ data: undefined, error: null, loading: true });
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

/** Calls fn every `ms` while `active`; stops on unmount. */
export function useInterval(fn, ms, active = true) {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    if (!active) return undefined;
    const t = setInterval(() => saved.current(), ms);
    return () => clearInterval(t);
  }, [ms, active]);
}
