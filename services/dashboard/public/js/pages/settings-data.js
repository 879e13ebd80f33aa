import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, adminApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { ErrorBox, Loading } from '../components/status.js';

// A project's data policy (docs/data.md): retention, scrubbing, quotas and sampling, each a
// tab of its own that saves with its own admin route.

const KINDS = [
  ['logs', 'Logs'],
  ['errors', 'Errors'],
  ['spans', 'Trace spans'],
  ['llm', 'LLM usage'],
];

/** The policy, and a save that replaces it with the answer. */
function usePolicy(projectId) {
  const loaded = useData(() => api(adminApi(projectId, '/data-policy')), projectId);
  const [state, setState] = useState(/** @type {{ busy: boolean, error: unknown, saved: boolean, data?: any }} */ ({ busy: false, error: null, saved: false }));
  const save = async (/** @type {string} */ path, /** @type {unknown} */ body) => {
    setState({ busy: true, error: null, saved: false });
    try {
      const data = await api(adminApi(projectId, path), { method: 'PUT', body });
      setState({ busy: false, error: null, saved: true, data });
    } catch (error) {
      setState({ busy: false, error, saved: false });
    }
  };
  return { loaded, data: state.data || loaded.data, state, save };
}

const numberOrNull = (/** @type {string} */ s) => (s.trim() === '' ? null : Number(s));

export function RetentionTab({ project }) {
  const { loaded, data, state, save } = usePolicy(project.id);
  const [values, setValues] = useState(/** @type {Record<string, string> | null} */ (null));
  if (!data) return loaded.error ? html`<${ErrorBox} error=${loaded.error} />` : html`<${Loading} />`;
  const set = data.policy.retention_days || {};
  const current = values || Object.fromEntries(KINDS.map(([k]) => [k, set[k] == null ? '' : String(set[k])]));
  const submit = (e) => {
    e.preventDefault();
    void save('/retention', { retention_days: Object.fromEntries(KINDS.map(([k]) => [k, numberOrNull(current[k])])) });
  };
  return html`
    <h2>Retention</h2>
    <p class="muted">
      How many days each kind of event is kept. Empty: the deployment's default. Applies to events received from now on; a shorter
      retention also hides older events at once and deletes them in the background.
    </p>
    <form onSubmit=${submit} class="stack-form">
      <table class="table" data-testid="retention-table">
        <thead><tr><th>Kind</th><th>Days</th><th>In effect</th></tr></thead>
        <tbody>
          ${KINDS.map(
            ([k, label]) => html`<tr key=${k}>
              <td>${label}</td>
              <td><input name=${`retention-${k}`} type="number" min="1" max="3650" step="1" placeholder="default" value=${current[k]}
                onInput=${(e) => setValues({ ...current, [k]: e.currentTarget.value })} /></td>
              <td data-testid=${`effective-retention-${k}`}>${data.effective.retention_days[k].days} days
                <span class="muted">(${data.effective.retention_days[k].source === 'project' ? 'this project' : 'default'})</span></td>
            </tr>`,
          )}
        </tbody>
      </table>
      <div class="row">
        <button class="btn btn-primary" type="submit" disabled=${state.busy} data-testid="save-retention">Save retention</button>
        ${state.saved && html`<span class="ok-text" role="status">Saved.</span>`}
      </div>
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
    </form>
  `;
}

const MATCHES = [
  ['key', 'Key matches (RE2)'],
  ['regex', 'Value matches (RE2)'],
  ['email', 'Email addresses'],
  ['ip', 'IP addresses (v4 and v6)'],
  ['ipv4', 'IPv4 addresses'],
  ['ipv6', 'IPv6 addresses'],
  ['creditcard', 'Card numbers (Luhn)'],
  ['secret_keys', 'Secret-looking keys'],
];
const ACTIONS = [
  ['filter', 'Replace with [Filtered]'],
  ['remove', 'Remove'],
  ['mask', 'Mask with *'],
  ['hash', 'Hash'],
];
const withPattern = (/** @type {string} */ m) => m === 'key' || m === 'regex';

export function ScrubbingTab({ project }) {
  const { loaded, data, state, save } = usePolicy(project.id);
  const [draft, setDraft] = useState(/** @type {{ defaults: boolean, rules: any[] } | null} */ (null));
  if (!data) return loaded.error ? html`<${ErrorBox} error=${loaded.error} />` : html`<${Loading} />`;
  const s = draft || { defaults: data.effective.scrubbing_defaults, rules: data.policy.scrubbing?.rules || [] };
  const setRule = (i, change) => setDraft({ ...s, rules: s.rules.map((r, j) => (j === i ? { ...r, ...change } : r)) });
  const submit = (e) => {
    e.preventDefault();
    const rules = s.rules.map((r) => (withPattern(r.match) ? r : { match: r.match, action: r.action }));
    void save('/scrubbing', { defaults: s.defaults, rules });
  };
  return html`
    <h2>Scrubbing</h2>
    <p class="muted">
      Applied by the receiver before an event is stored anywhere, to metadata, context, breadcrumbs, OTLP attributes and messages.
      This project's rules apply first, then the defaults.
    </p>
    <form onSubmit=${submit} class="stack-form">
      <label class="check"><input type="checkbox" name="scrub-defaults" checked=${s.defaults} onChange=${(e) => setDraft({ ...s, defaults: e.currentTarget.checked })} />
        Default rules: values under secret-looking keys (password, token, api_key, authorization, cookie, session, …) and card numbers become [Filtered]</label>
      <table class="table" data-testid="scrub-rules">
        <thead><tr><th>Match</th><th>Pattern</th><th>Action</th><th></th></tr></thead>
        <tbody>
          ${s.rules.map(
            (r, i) => html`<tr key=${i}>
              <td><select value=${r.match} onChange=${(e) => setRule(i, { match: e.currentTarget.value })}>
                ${MATCHES.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></td>
              <td>${withPattern(r.match) ? html`<input value=${r.pattern || ''} maxlength="200" placeholder="^ssn$" onInput=${(e) => setRule(i, { pattern: e.currentTarget.value })} />` : ''}</td>
              <td><select value=${r.action || 'filter'} onChange=${(e) => setRule(i, { action: e.currentTarget.value })}>
                ${ACTIONS.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></td>
              <td><button type="button" class="btn" onClick=${() => setDraft({ ...s, rules: s.rules.filter((_, j) => j !== i) })}>Remove</button></td>
            </tr>`,
          )}
        </tbody>
      </table>
      <div class="row">
        <button type="button" class="btn" onClick=${() => setDraft({ ...s, rules: [...s.rules, { match: 'key', pattern: '', action: 'filter' }] })}>Add rule</button>
        <button class="btn btn-primary" type="submit" disabled=${state.busy} data-testid="save-scrubbing">Save scrubbing</button>
        ${state.saved && html`<span class="ok-text" role="status">Saved. Applies to new events at once.</span>`}
      </div>
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
    </form>
  `;
}

export function QuotasTab({ project }) {
  const { loaded, data, state, save } = usePolicy(project.id);
  const [draft, setDraft] = useState(/** @type {any} */ (null));
  if (!data) return loaded.error ? html`<${ErrorBox} error=${loaded.error} />` : html`<${Loading} />`;
  const q = data.policy.quotas || {};
  const g = { enabled: false, factor: 10, min_per_minute: 1000, ...(data.policy.spike_guard || {}) };
  const smp = data.policy.sampling || {};
  const text = (/** @type {unknown} */ v) => (v == null ? '' : String(v));
  const d = draft || {
    quotas: Object.fromEntries(KINDS.map(([k]) => [k, { per_minute: text(q[k]?.per_minute), per_day: text(q[k]?.per_day) }])),
    guard: { enabled: g.enabled, factor: String(g.factor), min_per_minute: String(g.min_per_minute) },
    sampling: { logs: text(smp.logs ?? 1), spans: text(smp.spans ?? 1) },
  };
  const submit = async (e) => {
    e.preventDefault();
    const quotas = Object.fromEntries(KINDS.map(([k]) => [k, { per_minute: numberOrNull(d.quotas[k].per_minute), per_day: numberOrNull(d.quotas[k].per_day) }]));
    const spike_guard = { enabled: d.guard.enabled, factor: Number(d.guard.factor), min_per_minute: Number(d.guard.min_per_minute) };
    await save('/quotas', { quotas, spike_guard });
    await save('/sampling', { sampling: { logs: Number(d.sampling.logs), spans: Number(d.sampling.spans) } });
  };
  const setQuota = (k, field, v) => setDraft({ ...d, quotas: { ...d.quotas, [k]: { ...d.quotas[k], [field]: v } } });
  return html`
    <h2>Quotas and sampling</h2>
    <p class="muted">
      Events per kind, across all receivers. Over a quota, requests get 429 with Retry-After and their events are counted as rate limited.
      Empty: no limit.
    </p>
    <form onSubmit=${submit} class="stack-form">
      <table class="table" data-testid="quotas-table">
        <thead><tr><th>Kind</th><th>Per minute</th><th>Per day (UTC)</th></tr></thead>
        <tbody>
          ${KINDS.map(
            ([k, label]) => html`<tr key=${k}>
              <td>${label}</td>
              <td><input name=${`quota-${k}-minute`} type="number" min="1" step="1" placeholder="none" value=${d.quotas[k].per_minute} onInput=${(e) => setQuota(k, 'per_minute', e.currentTarget.value)} /></td>
              <td><input name=${`quota-${k}-day`} type="number" min="1" step="1" placeholder="none" value=${d.quotas[k].per_day} onInput=${(e) => setQuota(k, 'per_day', e.currentTarget.value)} /></td>
            </tr>`,
          )}
        </tbody>
      </table>
      <h3>Spike guard</h3>
      <label class="check"><input type="checkbox" name="spike-guard" checked=${d.guard.enabled} onChange=${(e) => setDraft({ ...d, guard: { ...d.guard, enabled: e.currentTarget.checked } })} />
        Refuse events above a multiple of this project's recent rate (per kind, per minute, the last hour's average)</label>
      <div class="inline-form">
        <label>Multiple <input name="spike-factor" type="number" min="1.5" max="1000" step="0.5" value=${d.guard.factor} onInput=${(e) => setDraft({ ...d, guard: { ...d.guard, factor: e.currentTarget.value } })} /></label>
        <label>Never below (events/min) <input name="spike-floor" type="number" min="1" step="1" value=${d.guard.min_per_minute} onInput=${(e) => setDraft({ ...d, guard: { ...d.guard, min_per_minute: e.currentTarget.value } })} /></label>
      </div>
      <h3>Sampling</h3>
      <p class="muted">Share of logs and spans kept, by trace: a trace's spans and logs are kept or dropped together. Sampled-out events are counted, not stored.</p>
      <div class="inline-form">
        <label>Logs <input name="sample-logs" type="number" min="0" max="1" step="0.01" value=${d.sampling.logs} onInput=${(e) => setDraft({ ...d, sampling: { ...d.sampling, logs: e.currentTarget.value } })} /></label>
        <label>Spans <input name="sample-spans" type="number" min="0" max="1" step="0.01" value=${d.sampling.spans} onInput=${(e) => setDraft({ ...d, sampling: { ...d.sampling, spans: e.currentTarget.value } })} /></label>
      </div>
      <div class="row">
        <button class="btn btn-primary" type="submit" disabled=${state.busy} data-testid="save-quotas">Save</button>
        ${state.saved && html`<span class="ok-text" role="status">Saved.</span>`}
      </div>
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
    </form>
  `;
}
