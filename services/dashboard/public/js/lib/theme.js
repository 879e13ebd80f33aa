import { useEffect, useState } from 'preact/hooks';

// The page follows the system's light or dark setting (app.css); drawings that take their
// colours from it at creation (charts) redraw when it changes.

const query = () => window.matchMedia('(prefers-color-scheme: dark)');

/** 'dark' or 'light', re-rendering the caller when the system setting changes. */
export function useColorScheme() {
  const [dark, setDark] = useState(() => query().matches);
  useEffect(() => {
    const q = query();
    const onChange = () => setDark(q.matches);
    q.addEventListener('change', onChange);
    return () => q.removeEventListener('change', onChange);
  }, []);
  return dark ? 'dark' : 'light';
}
