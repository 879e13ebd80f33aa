import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { ErrorBox } from '../components/status.js';
import { promptsApi } from './prompt-paths.js';

// A new prompt, or a new version of one (POST /api/projects/:id/prompts): the text, or chat
// messages as JSON; a config as JSON; labels moved to it; a commit message.

/** @typedef {{ role: string, content: string }} Message */

/**
 * @param {{ projectId: string, name?: string, type?: 'text' | 'chat', initial?: string | Message[], initialConfig?: Record<string, unknown>, onSaved: (v: any) => void }} props
 */
export function PromptForm({ projectId, name: fixedName, type: fixedType, initial, initialConfig, onSaved }) {
  const [name, setName] = useState(fixedName || '');
  const [type, setType] = useState(fixedType || (Array.isArray(initial) ? 'chat' : 'text'));
  const [text, setText] = useState(typeof initial === 'string' ? initial : initial ? JSON.stringify(initial, null, 2) : '');
  const [config, setConfig] = useState(initialConfig && Object.keys(initialConfig).length ? JSON.stringify(initialConfig, null, 2) : '');
  const [labels, setLabels] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState(/** @type {unknown} */ (null));
  const [busy, setBusy] = useState(false);
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setError(null);
    let prompt;
    let cfg = {};
    try {
      prompt = type === 'chat' ? JSON.parse(text) : text;
      if (config.trim()) cfg = JSON.parse(config);
    } catch (err) {
      setError(new Error(`Not valid JSON: ${/** @type {Error} */ (err).message}`));
      return;
    }
    setBusy(true);
    try {
      const body = {
        name,
        prompt,
        config: cfg,
        commit_message: message || null,
        labels: labels
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean),
      };
      const r = await api(promptsApi(projectId), { method: 'POST', body });
      setLabels('');
      setMessage('');
      onSaved(r.version);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="stack-form prompt-form" onSubmit=${submit} data-testid="prompt-form">
    ${
      !fixedName &&
      html`<div class="form-row">
        <label>Name<input name="prompt-name" required maxlength="100" pattern="[A-Za-z0-9][A-Za-z0-9._\\-]*" value=${name} onInput=${(e) => setName(e.currentTarget.value)} /></label>
        <label>Type<select name="prompt-type" value=${type} onChange=${(e) => setType(e.currentTarget.value)}>
          <option value="text">Text</option><option value="chat">Chat (messages)</option>
        </select></label>
      </div>`
    }
    <label>${type === 'chat' ? 'Messages (JSON: [{"role": "system", "content": "…"}])' : 'Prompt'} <span class="muted small">{{variables}} are filled by prompt.compile()</span>
      <textarea name="prompt-text" rows="8" required value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
    </label>
    <label>Config (JSON, optional: model, temperature, …)
      <textarea name="prompt-config" rows="3" value=${config} onInput=${(e) => setConfig(e.currentTarget.value)}></textarea>
    </label>
    <div class="form-row">
      <label>Labels (comma-separated)<input name="prompt-labels" placeholder="production, staging" value=${labels} onInput=${(e) => setLabels(e.currentTarget.value)} /></label>
      <label class="grow">Commit message<input name="prompt-message" maxlength="500" value=${message} onInput=${(e) => setMessage(e.currentTarget.value)} /></label>
    </div>
    ${error && html`<${ErrorBox} error=${error} />`}
    <div><button class="btn btn-primary" type="submit" disabled=${busy} data-testid="save-prompt">${fixedName ? 'Save new version' : 'Create prompt'}</button></div>
  </form>`;
}
