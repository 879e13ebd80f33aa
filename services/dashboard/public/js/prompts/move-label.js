import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { ErrorBox } from '../components/status.js';
import { promptApi } from './prompt-paths.js';

// Point a label at a version (PUT .../labels/:label), or remove it: how a version reaches the
// apps that fetch "production" (after the receiver's and the SDK's cache TTLs, docs/sdk.md).

/** @param {{ projectId: string, name: string, versions: number[], labels: Record<string, number>, onChanged: () => void }} props */
export function MoveLabel({ projectId, name, versions, labels, onChanged }) {
  const [label, setLabel] = useState('production');
  const [version, setVersion] = useState(String(versions[0] ?? 1));
  const [error, setError] = useState(/** @type {unknown} */ (null));
  const act = async (/** @type {'PUT' | 'DELETE'} */ method) => {
    setError(null);
    try {
      await api(promptApi(projectId, name, `/labels/${encodeURIComponent(label.trim())}`), { method, body: method === 'PUT' ? { version: Number(version) } : undefined });
      onChanged();
    } catch (err) {
      setError(err);
    }
  };
  const existing = Object.keys(labels).filter((l) => l !== 'latest');
  return html`<form class="form-row" data-testid="move-label" onSubmit=${(e) => (e.preventDefault(), act('PUT'))}>
    <label>Label<input name="label" list="prompt-labels" required maxlength="36" value=${label} onInput=${(e) => setLabel(e.currentTarget.value)} /></label>
    <datalist id="prompt-labels">${['production', 'staging', ...existing].map((l) => html`<option key=${l} value=${l} />`)}</datalist>
    <label>Version<select name="label-version" value=${version} onChange=${(e) => setVersion(e.currentTarget.value)}>
      ${versions.map((v) => html`<option key=${v} value=${String(v)}>v${v}</option>`)}
    </select></label>
    <button class="btn btn-primary" type="submit" data-testid="set-label">Set label</button>
    ${existing.includes(label.trim()) && html`<button class="btn btn-danger" type="button" onClick=${() => act('DELETE')}>Remove label</button>`}
    ${error && html`<${ErrorBox} error=${error} />`}
  </form>`;
}
