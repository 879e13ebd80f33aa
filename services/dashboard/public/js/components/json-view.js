import { html } from 'htm/preact';
import { prettyJson, isEmptyObject } from '../lib/format.js';

/** Metadata or context as indented JSON text (rendered as text, never as markup). */
export function JsonView({ value, empty = 'none' }) {
  if (isEmptyObject(value)) return html`<span class="muted">${empty}</span>`;
  return html`<pre class="json">${prettyJson(value)}</pre>`;
}
