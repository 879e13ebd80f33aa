// Keyboard shortcuts: "/" focuses the page's search box (an element with data-search),
// as in GitHub, Grafana or Sentry; Escape leaves it.

/** @param {EventTarget | null} t */
const typing = (t) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export function installShortcuts() {
  document.addEventListener('keydown', (e) => {
    if (e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
      const box = /** @type {HTMLInputElement | null} */ (document.querySelector('[data-search]'));
      if (!box) return;
      e.preventDefault();
      box.focus();
      box.select();
    } else if (e.key === 'Escape' && e.target instanceof HTMLElement && e.target.matches('[data-search]')) {
      e.target.blur();
    }
  });
}
