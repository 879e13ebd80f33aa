import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { useSession } from '../lib/session.js';
import { formatTime } from '../lib/format.js';
import { Layout } from '../components/layout.js';
import { ErrorBox, Loading } from '../components/status.js';

// The prices behind every estimated LLM cost (docs/otlp.md#llm-cost), USD per million tokens:
// the price files' and the operator's edits over them. Everyone signed in reads them; the
// owner edits a model's prices (cached input, tiers past a prompt size) or removes an edit, for
// every project, past calls included.

const PATH = '/api/admin/llm-prices';
const EMPTY = { model: '', provider: '', input: '', output: '', cached_input: '', tiers: /** @type {any[]} */ ([]) };
/** libs/kinds MAX_PRICE_TIERS (the API refuses more). */
const MAX_TIERS = 4;

/** @param {string} v */
const num = (v) => (v.trim() === '' ? undefined : Number(v));

/** The form's draft as the API's body. */
function bodyOf(d) {
  return {
    ...(d.provider.trim() && { provider: d.provider.trim() }),
    input: num(d.input),
    output: num(d.output),
    ...(num(d.cached_input) !== undefined && { cached_input: num(d.cached_input) }),
    tiers: d.tiers.map((t) => ({
      above_input_tokens: num(t.above_input_tokens),
      input: num(t.input),
      output: num(t.output),
      ...(num(t.cached_input) !== undefined && { cached_input: num(t.cached_input) }),
    })),
  };
}

/** A price as the form's draft. */
const draftOf = (p) => ({
  model: p.model,
  provider: p.provider ?? '',
  input: String(p.input),
  output: String(p.output),
  cached_input: p.cached_input === null ? '' : String(p.cached_input),
  tiers: p.tiers.map((t) => ({
    above_input_tokens: String(t.above_input_tokens),
    input: String(t.input),
    output: String(t.output),
    cached_input: t.cached_input === undefined ? '' : String(t.cached_input),
  })),
});

function PriceForm({ draft, setDraft, onSaved }) {
  const [state, setState] = useState(/** @type {{ busy: boolean, error: unknown }} */ ({ busy: false, error: null }));
  const field = (key, label, props = {}) =>
    html`<label>${label}<input class="input" name=${`price-${key}`} value=${draft[key]} onInput=${(e) => setDraft({ ...draft, [key]: e.currentTarget.value })} ...${props} /></label>`;
  const tierField = (i, key, label) =>
    html`<label>${label}<input class="input" inputmode="decimal" name=${`tier-${i}-${key}`} value=${draft.tiers[i][key]}
      onInput=${(e) => setDraft({ ...draft, tiers: draft.tiers.map((t, j) => (j === i ? { ...t, [key]: e.currentTarget.value } : t)) })} /></label>`;
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setState({ busy: true, error: null });
    try {
      await api(`${PATH}/${encodeURIComponent(draft.model.trim())}`, { method: 'PUT', body: bodyOf(draft) });
      setState({ busy: false, error: null });
      onSaved();
    } catch (error) {
      setState({ busy: false, error });
    }
  };
  return html`<form class="card stack-form" onSubmit=${submit} data-testid="price-form">
    <h2>${draft.model ? `Prices of ${draft.model}` : 'Price a model'}</h2>
    <div class="form-row">
      ${field('model', 'Model (without a routing prefix)', { required: true, placeholder: 'gpt-4o' })}
      ${field('provider', 'Provider', { placeholder: 'openai' })}
    </div>
    <div class="form-row">
      ${field('input', 'Input, $ per 1M tokens', { required: true, inputmode: 'decimal' })}
      ${field('cached_input', 'Cached input (empty: as input)', { inputmode: 'decimal' })}
      ${field('output', 'Output, $ per 1M tokens', { required: true, inputmode: 'decimal' })}
    </div>
    ${draft.tiers.map(
      (_t, i) => html`<div class="form-row" data-testid="price-tier">
        ${tierField(i, 'above_input_tokens', 'Past input tokens')} ${tierField(i, 'input', 'Input')} ${tierField(i, 'cached_input', 'Cached input')} ${tierField(i, 'output', 'Output')}
        <button type="button" class="btn" onClick=${() => setDraft({ ...draft, tiers: draft.tiers.filter((_, j) => j !== i) })}>Remove tier</button>
      </div>`,
    )}
    <div class="row">
      ${
        draft.tiers.length < MAX_TIERS &&
        html`<button type="button" class="btn" data-testid="add-tier" onClick=${() =>
          setDraft({ ...draft, tiers: [...draft.tiers, { above_input_tokens: '', input: '', output: '', cached_input: '' }] })}>Add a tier</button>`
      }
      <button class="btn btn-primary" type="submit" disabled=${state.busy} data-testid="save-price">Save</button>
      <button type="button" class="btn" onClick=${() => setDraft(null)}>Cancel</button>
    </div>
    ${state.error && html`<${ErrorBox} error=${state.error} />`}
  </form>`;
}

export function LlmPricesPage() {
  const { user } = useSession();
  const { data, error, reload } = useData(() => api(PATH), 'llm-prices');
  const [draft, setDraft] = useState(/** @type {any} */ (null));
  const [removeError, setRemoveError] = useState(/** @type {unknown} */ (null));
  const remove = async (model) => {
    try {
      await api(`${PATH}/${encodeURIComponent(model)}`, { method: 'DELETE' });
      setRemoveError(null);
      reload();
    } catch (err) {
      setRemoveError(err);
    }
  };
  const tiers = (p) => p.tiers.map((t) => `> ${t.above_input_tokens.toLocaleString()}: ${t.input} / ${t.output}`).join('; ');
  return html`<${Layout}>
    <div class="page-head">
      <h1>LLM prices</h1>
      ${user?.is_owner && !draft && html`<div class="head-actions"><button class="btn btn-primary" data-testid="new-price" onClick=${() => setDraft({ ...EMPTY })}>Price a model</button></div>`}
    </div>
    <p class="muted">
      USD per million tokens, behind every estimated cost (a call sent without its cost). An edit holds for every project and prices past calls too.
      ${user?.is_owner ? '' : ' Only the owner edits them.'}
    </p>
    ${draft && html`<${PriceForm} draft=${draft} setDraft=${setDraft} onSaved=${() => (setDraft(null), reload())} />`}
    ${(error || removeError) && html`<${ErrorBox} error=${error || removeError} />`}
    ${!data && !error && html`<${Loading} />`}
    ${
      data &&
      html`<section class="card"><div class="table-wrap"><table class="table compact" data-testid="price-table">
        <thead><tr><th>Model</th><th>Provider</th><th class="num">Input</th><th class="num">Cached input</th><th class="num">Output</th><th>Tiers (input / output)</th><th>Source</th>${user?.is_owner && html`<th></th>`}</tr></thead>
        <tbody>
          ${data.prices.map(
            (p) => html`<tr key=${p.model} data-testid="price-row" data-model=${p.model}>
              <td>${p.model}</td>
              <td>${p.provider ?? ''}</td>
              <td class="num">${p.input}</td>
              <td class="num">${p.cached_input ?? html`<span class="muted">as input</span>`}</td>
              <td class="num">${p.output}</td>
              <td class="small">${tiers(p)}</td>
              <td>${p.source === 'edited' ? html`<span title=${`${p.updated_by} · ${formatTime(p.updated_at)}`} data-testid="price-edited">edited</span>` : html`<span class="muted">file</span>`}</td>
              ${
                user?.is_owner &&
                html`<td class="nowrap">
                  <button type="button" class="link-button" data-testid="edit-price" onClick=${() => setDraft(draftOf(p))}>Edit</button>
                  ${p.source === 'edited' && html` <button type="button" class="link-button" data-testid="remove-edit" onClick=${() => remove(p.model)}>Remove edit</button>`}
                </td>`
              }
            </tr>`,
          )}
        </tbody>
      </table></div></section>`
    }
  </${Layout}>`;
}
