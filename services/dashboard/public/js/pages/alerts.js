import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { formatTime } from '../lib/format.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';

// Alert rules of a project, with a form to add one, "test rule", and every notification with
// each delivery attempt (status, latency, response code). docs/alerts.md.

const TYPES = [
  ['new_group', 'A new error group'],
  ['regressed_group', 'A resolved group regresses'],
  ['group_assigned', 'A group is assigned to someone'],
  ['event_count', 'More than N events in M minutes'],
  ['llm_cost', 'LLM cost over a budget'],
  ['no_events', 'No events of a kind for M minutes'],
  ['consumer_lag', 'Consumer lag above a bound'],
  ['crash_free_rate', "A release's crash-free sessions under a rate"],
  ['llm_score', "An LLM score's average under a bound"],
];

function paramsOf(type, f) {
  const n = (k) => Number(f[k]);
  switch (type) {
    case 'event_count':
      return { source: f.source, ...(f.source === 'log_level' ? { level: f.level } : {}), threshold: n('threshold'), window_minutes: n('window') };
    case 'llm_cost':
      return { budget_usd: n('budget'), window_minutes: n('window') };
    case 'no_events':
      return { kind: f.kind, window_minutes: n('window') };
    case 'consumer_lag':
      return { max_lag: n('threshold'), window_minutes: n('window') };
    case 'crash_free_rate':
      // Typed as a percentage, sent as a share like the read API's rates; a blank minimum or release is the API's default.
      return {
        threshold: n('rate') / 100,
        window_minutes: n('window'),
        ...(f.minSessions ? { min_sessions: n('minSessions') } : {}),
        ...(f.release.trim() ? { release: f.release.trim() } : {}),
      };
    case 'llm_score':
      // A blank minimum is the API's default.
      return { name: f.scoreName.trim(), threshold: n('scoreBound'), window_minutes: n('window'), ...(f.minScores ? { min_scores: n('minScores') } : {}) };
    default:
      return {};
  }
}

function NewRule({ projectId, onCreated }) {
  const [f, setF] = useState({
    name: '',
    type: 'new_group',
    source: 'error_group',
    level: 'error',
    threshold: '100',
    window: '5',
    budget: '10',
    kind: 'log',
    rate: '99',
    minSessions: '',
    release: '',
    scoreName: '',
    scoreBound: '0.5',
    minScores: '',
    destType: 'webhook',
    url: '',
  });
  const [err, setErr] = useState(/** @type {unknown} */ (null));
  const [secret, setSecret] = useState(/** @type {string | null} */ (null));
  const set = (k) => (e) => setF({ ...f, [k]: e.currentTarget.value });
  const submit = async (e) => {
    e.preventDefault();
    setErr(null);
    try {
      const { rule } = await api(projectApi(projectId, '/alert-rules'), {
        method: 'POST',
        body: { name: f.name, type: f.type, params: paramsOf(f.type, f), destinations: [{ type: f.destType, url: f.url }] },
      });
      setSecret(rule.destinations.find((d) => d.signing_secret)?.signing_secret ?? null);
      onCreated();
    } catch (x) {
      setErr(x);
    }
  };
  const needs = (...types) => types.includes(f.type);
  return html`<form class="card" onSubmit=${submit} data-testid="new-rule">
    <h2>New rule</h2>
    <div class="form-row">
      <label>Name<input required value=${f.name} onInput=${set('name')} /></label>
      <label>When<select value=${f.type} onChange=${set('type')}>${TYPES.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></label>
      ${needs('event_count') && html`<label>Of<select value=${f.source} onChange=${set('source')}><option value="error_group">one error group</option><option value="log_level">logs of a level</option><option value="error_spans">error spans</option></select></label>`}
      ${needs('event_count') && f.source === 'log_level' && html`<label>Level<select value=${f.level} onChange=${set('level')}>${['debug', 'info', 'warn', 'error'].map((l) => html`<option>${l}</option>`)}</select></label>`}
      ${needs('no_events') && html`<label>Kind<select value=${f.kind} onChange=${set('kind')}>${['log', 'error', 'span', 'llm'].map((l) => html`<option>${l}</option>`)}</select></label>`}
      ${needs('event_count', 'consumer_lag') && html`<label>More than<input type="number" min="0" value=${f.threshold} onInput=${set('threshold')} /></label>`}
      ${needs('llm_cost') && html`<label>Budget (USD)<input type="number" min="0" step="0.01" value=${f.budget} onInput=${set('budget')} /></label>`}
      ${needs('crash_free_rate') && html`<label>Crash-free under (%)<input type="number" min="0.01" max="100" step="0.01" value=${f.rate} onInput=${set('rate')} /></label>`}
      ${needs('crash_free_rate') && html`<label>Min. sessions<input type="number" min="1" placeholder="default" value=${f.minSessions} onInput=${set('minSessions')} /></label>`}
      ${needs('crash_free_rate') && html`<label>Release<input placeholder="every release" value=${f.release} onInput=${set('release')} /></label>`}
      ${needs('llm_score') && html`<label>Score<input required placeholder="helpfulness" value=${f.scoreName} onInput=${set('scoreName')} /></label>`}
      ${needs('llm_score') && html`<label>Average under<input type="number" step="any" value=${f.scoreBound} onInput=${set('scoreBound')} /></label>`}
      ${needs('llm_score') && html`<label>Min. scores<input type="number" min="1" placeholder="default" value=${f.minScores} onInput=${set('minScores')} /></label>`}
      ${needs('event_count', 'llm_cost', 'no_events', 'consumer_lag', 'crash_free_rate', 'llm_score') && html`<label>Minutes<input type="number" min="1" max="1440" value=${f.window} onInput=${set('window')} /></label>`}
    </div>
    <div class="form-row">
      <label>Send to<select value=${f.destType} onChange=${set('destType')}><option value="webhook">Webhook (signed JSON)</option><option value="slack">Slack incoming webhook</option></select></label>
      <label style="flex:1">URL<input required type="url" value=${f.url} onInput=${set('url')} placeholder="https://…" /></label>
      <button class="btn btn-primary" type="submit">Create rule</button>
    </div>
    ${err && html`<${ErrorBox} error=${err} />`}
    ${secret && html`<p>Signing secret (shown once, store it now): <span class="secret" data-testid="signing-secret">${secret}</span></p>`}
  </form>`;
}

function Attempts({ attempts }) {
  return attempts.map(
    (a) =>
      html`<div class="small mono">#${a.attempt} ${formatTime(a.started_at)} · ${a.status_code ?? a.outcome} · ${a.latency_ms} ms${a.error ? ` · ${a.error}` : ''}</div>`,
  );
}

export function AlertsPage({ project }) {
  const rules = useData(() => api(projectApi(project.id, '/alert-rules')), `${project.id}|rules`);
  const sent = useData(() => api(projectApi(project.id, '/alert-notifications'), { query: { limit: 100 } }), `${project.id}|notifications`);
  const [busy, setBusy] = useState('');
  const test = async (id) => {
    setBusy(id);
    await api(projectApi(project.id, `/alert-rules/${id}/test`), { method: 'POST' }).catch(() => {});
    setBusy('');
    sent.reload();
  };
  const remove = async (id) => {
    await api(projectApi(project.id, `/alert-rules/${id}`), { method: 'DELETE' });
    rules.reload();
  };
  return html`
    <div class="page-head"><h1>Alerts</h1><div class="head-actions"><button class="btn" onClick=${() => sent.reload()}>Refresh</button></div></div>
    <${NewRule} projectId=${project.id} onCreated=${rules.reload} />
    <section class="card">
      <h2>Rules</h2>
      ${rules.error && html`<${ErrorBox} error=${rules.error} />`}
      ${!rules.data && html`<${Loading} />`}
      ${
        rules.data &&
        (rules.data.rules.length === 0
          ? html`<${Empty}>No rules yet.</${Empty}>`
          : html`<table class="table" data-testid="alert-rules"><thead><tr><th>Name</th><th>When</th><th>Destinations</th><th></th></tr></thead><tbody>
          ${rules.data.rules.map(
            (r) => html`<tr>
              <td>${r.name}${r.enabled ? '' : ' (off)'}</td>
              <td>${TYPES.find(([t]) => t === r.type)?.[1] ?? r.type} <span class="muted small mono">${JSON.stringify(r.params)}</span></td>
              <td>${r.destinations.map((d) => html`<div class="small">${d.type}: <span class="mono">${d.url}</span></div>`)}</td>
              <td class="nowrap"><button class="btn btn-small" disabled=${busy === r.id} onClick=${() => test(r.id)}>Test</button> <button class="btn btn-small btn-danger" onClick=${() => remove(r.id)}>Delete</button></td>
            </tr>`,
          )}</tbody></table>`)
      }
    </section>
    <section class="card">
      <h2>Notifications</h2>
      ${
        sent.data &&
        (sent.data.notifications.length === 0
          ? html`<${Empty}>Nothing sent yet.</${Empty}>`
          : html`<table class="table compact" data-testid="alert-notifications"><thead><tr><th>Created</th><th>Rule</th><th>What</th><th>To</th><th>Status</th><th>Attempts</th></tr></thead><tbody>
          ${sent.data.notifications.map(
            (n) => html`<tr>
              <td class="nowrap mono">${formatTime(n.created_at)}</td>
              <td>${n.rule_name}</td>
              <td>${n.test ? '[test] ' : ''}${n.title}</td>
              <td>${n.destination_type}</td>
              <td>${n.status}${n.next_attempt_at ? html`<div class="small muted">next ${formatTime(n.next_attempt_at)}</div>` : ''}</td>
              <td><${Attempts} attempts=${n.attempts} /></td>
            </tr>`,
          )}</tbody></table>`)
      }
    </section>
  `;
}
