import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain http on a non-local host: the older selection-based copy.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.appendChild(area);
  area.select();
  try {
    document.execCommand('copy');
  } finally {
    area.remove();
  }
}

export function CopyButton({ text, label = 'Copy', testId }) {
  const [state, setState] = useState('idle');
  const onClick = async () => {
    try {
      await copyText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  const shown = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label;
  return html`<button type="button" class="btn btn-small" data-testid=${testId} onClick=${onClick}>${shown}</button>`;
}
