import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, adminApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { ErrorBox, Loading } from '../components/status.js';

// A project's LLM data policy (docs/data.md, "LLM content and attribution"): whether calls keep
// their conversation, and which OTLP span or resource attributes go into a call's metadata.

export function LlmTab({ project }) {
  const loaded = useData(() => api(adminApi(project.id, '/data-policy')), project.id);
  const [draft, setDraft] = useState(/** @type {null | { capture: boolean, attributes: string }} */ (null));
  const [state, setState] = useState(/** @type {{ busy: boolean, error: unknown, saved: boolean }} */ ({ busy: false, error: null, saved: false }));
  if (!loaded.data) return loaded.error ? html`<${ErrorBox} error=${loaded.error} />` : html`<${Loading} />`;
  const current = loaded.data.effective.llm;
  const d = draft || { capture: current.capture_content, attributes: current.metadata_attributes.join('\n') };
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setState({ busy: true, error: null, saved: false });
    const metadata_attributes = d.attributes
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    try {
      await api(adminApi(project.id, '/llm'), { method: 'PUT', body: { llm: { capture_content: d.capture, metadata_attributes } } });
      setState({ busy: false, error: null, saved: true });
      loaded.reload();
    } catch (error) {
      setState({ busy: false, error, saved: false });
    }
  };
  return html`
    <h2>LLM content</h2>
    <p class="muted">The prices behind estimated costs hold for every project: <a href="/llm-prices">LLM prices</a>.</p>
    <form onSubmit=${submit} class="stack-form">
      <label class="check"><input type="checkbox" name="llm-capture" checked=${d.capture} onChange=${(e) => setDraft({ ...d, capture: e.currentTarget.checked })} />
        Keep the conversation (prompts and answers) of LLM calls</label>
      <p class="muted">
        Off: new calls are stored without their messages (nothing of them reaches Kafka or ClickHouse); tokens, cost, latency and metadata are kept.
        Calls already stored keep theirs until their retention ends. Messages are scrubbed by this project's rules and capped per call either way.
      </p>
      <label>Attributes kept in a call's metadata (OpenTelemetry span or resource attributes, one per line; enduser.id and session.id always are)
        <textarea name="llm-attributes" rows="4" placeholder="feature" value=${d.attributes} onInput=${(e) => setDraft({ ...d, attributes: e.currentTarget.value })}></textarea>
      </label>
      <div class="row">
        <button class="btn btn-primary" type="submit" disabled=${state.busy} data-testid="save-llm">Save</button>
        ${state.saved && html`<span class="ok-text" role="status">Saved.</span>`}
      </div>
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
    </form>
  `;
}
