import { html } from 'htm/preact';

// The search's words in a log message, marked (ASCII letters compared without case, as the
// search matches them). Text only: the parts are rendered as text nodes.

const escapeRegex = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @param {{ text: string, terms?: string[] }} props */
export function Highlight({ text, terms }) {
  const words = (terms || []).filter((t) => t.length > 0);
  if (words.length === 0 || !text) return html`${text}`;
  const re = new RegExp(`(${words.map(escapeRegex).join('|')})`, 'gi');
  const parts = text.split(re);
  return html`${parts.map((p, i) => (i % 2 === 1 ? html`<mark>${p}</mark>` : p))}`;
}
