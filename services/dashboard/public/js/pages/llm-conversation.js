import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { formatCost, formatNumber } from '../lib/format.js';
import { JsonView } from '../components/json-view.js';

// One LLM call as a conversation (docs/dashboard.md, "LLM usage"): its input messages, then the
// model's output, each with its role (system, user, assistant, tool) and parts (text, tool
// calls, tool results), then the call's tokens and cost. Messages are stored in the GenAI shape
// (docs/otlp.md, "Conversation").

/** @typedef {{ type?: string, content?: unknown, id?: string, name?: string, arguments?: unknown, response?: unknown }} Part */
/** @typedef {{ role: string, parts: Part[], finish_reason?: string }} Message */

const asText = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** @param {{ part: Part }} props */
function PartView({ part }) {
  if (part.type === 'text') return html`<div class="msg-text" data-testid="llm-message-text">${asText(part.content ?? '')}</div>`;
  if (part.type === 'tool_call')
    return html`<div class="msg-part" data-testid="llm-tool-call">
      <span class="msg-tool-label">Tool call</span> <code>${part.name || '(unnamed)'}</code>${part.id ? html` <span class="muted small">${part.id}</span>` : ''}
      ${part.arguments != null && html`<pre class="msg-code">${asText(part.arguments)}</pre>`}
    </div>`;
  if (part.type === 'tool_call_response')
    return html`<div class="msg-part" data-testid="llm-tool-result">
      <span class="msg-tool-label">Tool result</span>${part.id ? html` <span class="muted small">${part.id}</span>` : ''}
      <pre class="msg-code">${asText(part.response ?? '')}</pre>
    </div>`;
  return html`<div class="msg-part"><span class="msg-tool-label">${part.type || 'part'}</span><${JsonView} value=${part} /></div>`;
}

/** @param {{ message: Message, side: 'input' | 'output' }} props */
function MessageView({ message, side }) {
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  const parts = Array.isArray(message.parts) ? message.parts : [];
  return html`<div class=${`msg msg-${['system', 'user', 'assistant', 'tool'].includes(role) ? role : 'other'}`} data-testid="llm-message" data-role=${role} data-side=${side}>
    <div class="msg-role">${role}${message.finish_reason ? html` <span class="muted small">(${message.finish_reason})</span>` : ''}</div>
    ${parts.length === 0 ? html`<div class="muted small">(no content)</div>` : parts.map((p) => html`<${PartView} part=${p} />`)}
  </div>`;
}

/** A call's cost as the read API gives it: effective, marked ≈ when estimated. */
export function CallCost({ call }) {
  if (call.cost_source === 'unpriced') return html`<span class="muted" title="No cost sent, and the price table does not price this model">—</span>`;
  if (call.cost_source === 'estimated') return html`<span title="Estimated from the price table">≈${formatCost(call.cost_usd)}</span>`;
  return html`<span>${formatCost(call.cost_usd)}</span>`;
}

const sameMessage = (/** @type {Message} */ a, /** @type {Message} */ b) => a.role === b.role && JSON.stringify(a.parts) === JSON.stringify(b.parts);

/**
 * How many of a call's input messages the call before it already showed: the longest start of
 * its input equal (role and parts) to the previous call's input then output. A session's turns
 * resend the whole history; shown as a thread, each turn shows only what is new.
 * @param {any} previous @param {any} call
 */
export function repeatedMessages(previous, call) {
  if (!previous || !Array.isArray(call.input)) return 0;
  const before = [...(Array.isArray(previous.input) ? previous.input : []), ...(Array.isArray(previous.output) ? previous.output : [])];
  let n = 0;
  while (n < before.length && n < call.input.length && sameMessage(before[n], call.input[n])) n++;
  return n;
}

/** @param {{ call: any, repeated?: number }} props `repeated`: input messages shown by the turn before, folded */
export function Conversation({ call, repeated = 0 }) {
  const input = /** @type {Message[]} */ (Array.isArray(call.input) ? call.input : []);
  const output = /** @type {Message[]} */ (Array.isArray(call.output) ? call.output : []);
  const [unfold, setUnfold] = useState(false);
  const hidden = unfold ? 0 : Math.min(repeated, input.length);
  return html`<div class="conversation" data-testid="llm-conversation">
    ${
      hidden > 0 &&
      html`<button type="button" class="link-button small" data-testid="llm-earlier" onClick=${() => setUnfold(true)}>
        ${hidden} earlier message${hidden === 1 ? '' : 's'}, as in the turn before: show</button>`
    }
    ${
      input.length + output.length === 0
        ? html`<p class="muted" data-testid="llm-no-content">No conversation recorded: the client sent none, or this project does not keep LLM content (Settings → Data).</p>`
        : html`${input.slice(hidden).map((m) => html`<${MessageView} message=${m} side="input" />`)}${output.map((m) => html`<${MessageView} message=${m} side="output" />`)}`
    }
    ${call.content_truncated && html`<p class="msg-truncated" data-testid="llm-truncated">Truncated: this conversation was longer than devtrail keeps per call (docs/otlp.md); the rest was not stored.</p>`}
    <div class="msg-footer muted small">
      ${call.model} · ${formatNumber(call.input_tokens)} input / ${formatNumber(call.output_tokens)} output tokens · <${CallCost} call=${call} />
      ${call.cost_source === 'estimated' ? ' (estimated)' : call.cost_source === 'sent' ? ' (as sent)' : ' (not priced)'} · ${formatNumber(call.latency_ms)} ms
    </div>
  </div>`;
}
