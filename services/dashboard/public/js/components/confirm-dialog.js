import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';

/** A modal confirmation on the native <dialog> element (focus trap, Escape to cancel). */
export function ConfirmDialog({ open, title, children, confirmLabel = 'Confirm', danger = false, busy = false, onConfirm, onCancel }) {
  const ref = useRef(/** @type {HTMLDialogElement | null} */ (null));
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return html`
    <dialog ref=${ref} class="dialog" aria-labelledby="dialog-title" onCancel=${(e) => (e.preventDefault(), onCancel())}>
      <h2 id="dialog-title">${title}</h2>
      <div class="dialog-body">${children}</div>
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onCancel} disabled=${busy}>Cancel</button>
        <button type="button" class=${`btn ${danger ? 'btn-danger' : 'btn-primary'}`} data-testid="confirm-button" onClick=${onConfirm} disabled=${busy}>
          ${busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  `;
}
