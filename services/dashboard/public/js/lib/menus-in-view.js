// Popover menus (<details class="menu">: Export, Columns, Saved searches) open inside the
// viewport, whatever side of the page their button is on: at 390 px a menu aligned to its
// button's right edge ran off the left edge of the screen. One listener for every menu.

const MARGIN = 8;

/** Shifts an open menu's body back inside the viewport. @param {HTMLDetailsElement} menu */
export function keepInView(menu) {
  const body = /** @type {HTMLElement | null} */ (menu.querySelector(':scope > .menu-body'));
  if (!body) return;
  body.style.left = '';
  body.style.right = '';
  const width = document.documentElement.clientWidth;
  const r = body.getBoundingClientRect();
  const host = menu.getBoundingClientRect();
  if (r.left < MARGIN) {
    body.style.right = 'auto';
    body.style.left = `${MARGIN - host.left}px`;
  } else if (r.right > width - MARGIN) {
    body.style.right = `${host.right - (width - MARGIN)}px`;
  }
}

export function installMenusInView() {
  // `toggle` does not bubble: heard while it is captured on its way down.
  document.addEventListener(
    'toggle',
    (e) => {
      const t = e.target;
      if (t instanceof HTMLDetailsElement && t.open && t.classList.contains('menu')) keepInView(t);
    },
    true,
  );
}
