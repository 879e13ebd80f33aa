import { html } from 'htm/preact';

// A version's labels as badges; latest is the newest version, production the one getPrompt fetches by default.

/** @param {{ labels: string[] }} props */
export function LabelBadges({ labels }) {
  return html`<span class="label-badges">${labels.map(
    (l) => html`<span key=${l} class=${`badge ${l === 'production' ? 'badge-ok' : l === 'latest' ? 'badge-info' : ''}`} data-testid="prompt-label">${l}</span>`,
  )}</span>`;
}
