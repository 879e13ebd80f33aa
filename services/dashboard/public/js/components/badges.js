import { html } from 'htm/preact';

// Small coloured labels; the class comes from a fixed list, the text is escaped.
const KNOWN = new Set(['debug', 'info', 'warn', 'error', 'low', 'medium', 'high', 'critical', 'ok']);

export function Badge({ value }) {
  const v = String(value || '');
  return html`<span class=${`badge badge-${KNOWN.has(v) ? v : 'other'}`}>${v}</span>`;
}
