import { html } from 'htm/preact';
import { useMemo, useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { useSession } from '../lib/session.js';
import { useData } from '../lib/use-data.js';
import { formatDecimal, formatNumber, formatTime } from '../lib/format.js';
import { TimeChart } from '../components/time-chart.js';
import { ErrorBox } from '../components/status.js';

// Scores on the LLM page (docs/api.md, "Scores"): each call's as badges and in its detail with
// a member's annotation form, and the averages per name over time with a summary per name.

/** @typedef {{ id: string, name: string, data_type: string, value: number, label: string, comment: string, source: string, author: string, timestamp: string, on: string }} Score */

/** A score's value as shown: a category or true/false as its label, a number to two decimals. @param {Score} s */
export const scoreText = (s) => (s.data_type === 'numeric' ? `${formatDecimal(s.value, 2)}${s.label ? ` ${s.label}` : ''}` : s.label);

/** Good, bad or neither, for the badge's colour: a boolean's value, a numeric one against the middle of 0..1. @param {Score} s */
const tone = (s) => (s.data_type === 'categorical' ? '' : s.value >= 0.5 ? 'badge-ok' : 'badge-error');

/** @param {{ scores: Score[] }} props */
export function ScoreBadges({ scores }) {
  if (!scores?.length) return html`<span class="muted">—</span>`;
  return html`<span class="score-badges">${scores.map(
    (s) =>
      html`<span key=${s.id} class=${`badge ${tone(s)}`} data-testid="llm-score-badge" title=${[s.comment, `${s.source}${s.author ? ` by ${s.author}` : ''}`, s.on === 'trace' ? 'on the trace' : ''].filter(Boolean).join(' · ')}>${s.name}: ${scoreText(s)}</span>`,
  )}</span>`;
}

/** Text as typed into the form -> the value /scores takes: a number, true/false, else a category. @param {string} v */
function typedValue(v) {
  const t = v.trim();
  if (t === 'true' || t === 'false') return t === 'true';
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
}

/** A call's scores, and for a member the form that adds one. @param {{ projectId: string, call: { event_id: string, scores: Score[] } }} props */
export function CallScores({ projectId, call }) {
  const { user } = useSession();
  const [added, setAdded] = useState(/** @type {Score[]} */ ([]));
  const [draft, setDraft] = useState({ name: '', value: '', comment: '' });
  const [err, setErr] = useState(/** @type {unknown} */ (null));
  const [busy, setBusy] = useState(false);
  const scores = [...(call.scores || []), ...added.filter((a) => !(call.scores || []).some((s) => s.id === a.id))];
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setErr(null);
    setBusy(true);
    try {
      const body = {
        name: draft.name.trim(),
        value: typedValue(draft.value),
        call_id: call.event_id,
        ...(draft.comment.trim() ? { comment: draft.comment.trim() } : {}),
      };
      const r = await api(projectApi(projectId, '/scores'), { method: 'POST', body });
      // Shown at once; reads have it once the scores sink has stored it.
      const v = body.value;
      const type = typeof v === 'number' ? 'numeric' : typeof v === 'boolean' ? 'boolean' : 'categorical';
      const label = type === 'numeric' ? '' : String(v);
      const value = typeof v === 'number' ? v : v === true ? 1 : 0;
      const comment = body.comment ?? '';
      setAdded([
        ...added,
        { id: r.id, name: body.name, data_type: type, value, label, comment, source: 'annotation', author: 'you', timestamp: new Date().toISOString(), on: 'call' },
      ]);
      setDraft({ name: '', value: '', comment: '' });
    } catch (x) {
      setErr(x);
    } finally {
      setBusy(false);
    }
  };
  return html`<div data-testid="llm-call-scores">
    <h4>Scores</h4>
    ${scores.length === 0 && html`<p class="muted small">No scores yet.</p>`}
    ${
      scores.length > 0 &&
      html`<ul class="score-list">${scores.map(
        (s) => html`<li key=${s.id} data-testid="llm-score-item">
          <span class=${`badge ${tone(s)}`}>${s.name}: ${scoreText(s)}</span>
          ${s.comment && html`<span class="score-comment">${s.comment}</span>`}
          <span class="muted small">${s.source}${s.author ? ` · ${s.author}` : ''}${s.on === 'trace' ? ' · on the trace' : ''} · ${formatTime(s.timestamp, { seconds: false })}</span>
        </li>`,
      )}</ul>`
    }
    ${
      user?.role !== 'viewer' &&
      html`<form class="form-row score-form" data-testid="llm-annotate" onSubmit=${submit}>
        <label>Score<input required maxlength="200" placeholder="correctness" value=${draft.name} onInput=${(e) => setDraft({ ...draft, name: e.currentTarget.value })} data-testid="llm-annotate-name" /></label>
        <label>Value<input required maxlength="200" placeholder="1, 0.5, true or a label" value=${draft.value} onInput=${(e) => setDraft({ ...draft, value: e.currentTarget.value })} data-testid="llm-annotate-value" /></label>
        <label class="grow">Comment<input maxlength="2000" placeholder="optional" value=${draft.comment} onInput=${(e) => setDraft({ ...draft, comment: e.currentTarget.value })} data-testid="llm-annotate-comment" /></label>
        <button class="btn btn-primary" type="submit" disabled=${busy} data-testid="llm-annotate-submit">Add score</button>
      </form>`
    }
    ${err && html`<${ErrorBox} error=${err} />`}
  </div>`;
}

/** @param {{ projectId: string, bounds: { from: number, to: number }, boundsKey: string }} props */
export function ScoresOverview({ projectId, bounds, boundsKey }) {
  const series = useData(() => api(projectApi(projectId, '/scores/series'), { query: { ...bounds, buckets: 48 } }), `score-series|${boundsKey}`);
  const summary = useData(() => api(projectApi(projectId, '/scores/summary'), { query: bounds }), `score-summary|${boundsKey}`);
  const chart = useMemo(() => {
    const d = series.data;
    if (!d || d.series.length === 0) return null;
    const xs = Array.from({ length: d.buckets }, (_, i) => (d.from + i * d.step_ms) / 1000);
    return { data: [xs, ...d.series.map((s) => s.average)], series: d.series.map((s) => ({ label: s.name })) };
  }, [series.data]);
  const names = summary.data?.names || [];
  if (!series.error && !summary.error && names.length === 0) return null;
  return html`<section class="card" data-testid="llm-scores">
    <h2>Scores</h2>
    ${series.error && html`<${ErrorBox} error=${series.error} />`}
    ${summary.error && html`<${ErrorBox} error=${summary.error} />`}
    <div class="grid-2">
      <div>${chart ? html`<${TimeChart} data=${chart.data} series=${chart.series} testId="llm-scores-chart" />` : html`<p class="muted">Only categorical scores in this range.</p>`}</div>
      <div class="table-wrap"><table class="table compact" data-testid="llm-scores-table">
        <thead><tr><th>Score</th><th class="num">Count</th><th class="num">Average</th><th>Values</th></tr></thead>
        <tbody>${names.map(
          (n) => html`<tr key=${n.name} data-testid="llm-scores-row">
            <td><button type="button" class="link-button" title="Sort the calls by this score" onClick=${() => setQuery({ sort: 'score', sort_score: n.name }, { replace: false })}>${n.name}</button></td>
            <td class="num">${formatNumber(n.count)}</td>
            <td class="num">${n.average === null ? '—' : formatDecimal(n.average, 2)}</td>
            <td class="small">${n.distribution.map((d) => `${d.value} ${formatNumber(d.count)}`).join(' · ')}</td>
          </tr>`,
        )}</tbody>
      </table></div>
    </div>
  </section>`;
}
