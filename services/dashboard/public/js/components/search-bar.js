import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { ErrorBox } from './status.js';

// The logs search box ("/" focuses it), its syntax at hand, and the project's saved searches.

const EXAMPLES = [
  ['timeout', 'the word in the message or the metadata (any case, part of a word too)'],
  ['"connection reset"', 'a phrase'],
  ['service:checkout', 'a field: service, env, release, level, trace_id, request_id, span_id, context, message'],
  ['metadata.user_id:u_1042', 'a metadata value (user_id:u_1042 for short)'],
  ['level:>=warn', 'warn and error; metadata.ms:>500 compares numbers'],
  ['-level:debug', 'leave out (also NOT)'],
  ['service:check*', '* matches anything'],
  ['request_id:*', 'has the field or key'],
  ['(a OR b) c', 'either, and c'],
];

/** @param {{ projectId: string, value: string, onSearch: (q: string, range?: string | null) => void, range: string | null }} props */
export function SearchBar({ projectId, value, onSearch, range }) {
  const [draft, setDraft] = useState(value);
  const [saving, setSaving] = useState(/** @type {null | { name: string, error: unknown }} */ (null));
  useEffect(() => setDraft(value), [value]);
  const saved = useData(() => api(projectApi(projectId, '/saved-queries')), `saved|${projectId}`);

  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    onSearch(draft.trim());
  };
  const save = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (!saving) return;
    try {
      await api(projectApi(projectId, '/saved-queries'), { method: 'POST', body: { name: saving.name, query: draft.trim(), range } });
      setSaving(null);
      saved.reload();
    } catch (error) {
      setSaving({ ...saving, error });
    }
  };
  const remove = async (/** @type {string} */ id) => {
    await api(projectApi(projectId, `/saved-queries/${encodeURIComponent(id)}`), { method: 'DELETE' }).catch(() => {});
    saved.reload();
  };
  const list = saved.data?.saved_queries || [];
  return html`
    <div class="search-area">
      <form class="search-bar" role="search" onSubmit=${submit}>
        <input
          type="search"
          name="q"
          data-search
          data-testid="log-search"
          aria-label="Search logs"
          placeholder='Search: words, "phrases", service:checkout, user_id:u_1042, level:>=warn, -exclude   (press / )'
          value=${draft}
          onInput=${(e) => setDraft(e.currentTarget.value)}
          autocomplete="off"
          spellcheck=${false}
        />
        <button class="btn btn-primary" type="submit">Search</button>
        <details class="menu" data-testid="saved-menu">
          <summary class="btn">Saved${list.length ? ` (${list.length})` : ''}</summary>
          <div class="menu-body">
            ${list.length === 0 && html`<p class="muted small">No saved searches yet.</p>`}
            <ul class="saved-list">
              ${list.map(
                (s) => html`<li key=${s.id}>
                  <button type="button" class="link-button" data-testid="saved-query" title=${s.query} onClick=${(e) => {
                    e.currentTarget.closest('details')?.removeAttribute('open');
                    onSearch(s.query, s.range);
                  }}>${s.name}</button>
                  <code class="small muted">${s.query}</code>
                  <button type="button" class="btn btn-small" aria-label=${`Delete saved search ${s.name}`} onClick=${() => remove(s.id)}>Delete</button>
                </li>`,
              )}
            </ul>
          </div>
        </details>
        <button class="btn" type="button" onClick=${() => setSaving({ name: '', error: null })} disabled=${!draft.trim()}>Save</button>
      </form>
      ${
        saving &&
        html`<form class="inline-form save-form" onSubmit=${save} data-testid="save-search">
          <label>Name of this search<input name="saved-name" required maxlength="100" value=${saving.name} onInput=${(e) => setSaving({ ...saving, name: e.currentTarget.value })} /></label>
          <button class="btn btn-primary" type="submit">Save search</button>
          <button class="btn" type="button" onClick=${() => setSaving(null)}>Cancel</button>
          ${saving.error && html`<${ErrorBox} error=${saving.error} />`}
        </form>`
      }
      <details class="syntax-help">
        <summary class="small">Search syntax</summary>
        <div class="table-wrap"><table class="table compact small">
          <tbody>${EXAMPLES.map(([q, what]) => html`<tr><td><code>${q}</code></td><td>${what}</td></tr>`)}</tbody>
        </table></div>
      </details>
    </div>
  `;
}
