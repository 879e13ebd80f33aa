import { html } from 'htm/preact';
import { Link } from '../lib/router.js';
import { formatDuration, formatTime, isEmptyObject, prettyJson } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { Badge } from '../components/badges.js';
import { CopyButton } from '../components/copy-button.js';
import { JsonView } from '../components/json-view.js';

// One span of a trace: its fields (ids with copy buttons), its attributes, the OTLP resource
// attributes, its events (time from the span's start) and links (to the linked trace), and
// its children. The OTLP mapping keeps events, links and resource in the span's metadata
// (docs/otlp.md, "Spans"); they are shown on their own and left out of the attributes.

const OWN_KEYS = ['otel.events', 'otel.links', 'otel.resource'];

export function SpanDetail({ span, trace, projectId, color, onSelect }) {
  const meta = span.metadata && typeof span.metadata === 'object' ? span.metadata : {};
  const attributes = Object.fromEntries(Object.entries(meta).filter(([k]) => !OWN_KEYS.includes(k)));
  const events = Array.isArray(meta['otel.events']) ? meta['otel.events'] : [];
  const links = Array.isArray(meta['otel.links']) ? meta['otel.links'] : [];
  const resource = meta['otel.resource'];
  const start = Date.parse(span.start_time);
  const parent = trace.spans.find((s) => s.span_id === span.parent_span_id);
  const children = trace.spans.filter((s) => s.parent_span_id === span.span_id);
  return html`
    <section class="card span-detail" data-testid="span-detail">
      <h2 class="break"><span class="dot" style=${{ background: color(span.service) }}></span> ${span.operation}</h2>
      <dl class="fields">
        <dt>Service</dt><dd>${span.service}</dd>
        <dt>Duration</dt><dd>${formatDuration(span.duration_ms)}${trace.end > trace.start && html` <span class="muted small">(${Math.round((span.duration_ms / (trace.end - trace.start)) * 100)} % of the trace)</span>`}</dd>
        <dt>Start</dt><dd>${formatTime(span.start_time, { zone: true })} <span class="muted small">+${formatDuration(start - trace.start)}</span></dd>
        <dt>Status</dt><dd><${Badge} value=${span.status} /></dd>
        <dt>Span id</dt><dd class="mono break">${span.span_id} <${CopyButton} text=${span.span_id} label="Copy" testId="copy-span-id" /></dd>
        <dt>Trace id</dt><dd class="mono break">${span.trace_id} <${CopyButton} text=${span.trace_id} label="Copy" testId="copy-trace-id" /></dd>
        <dt>Parent</dt><dd class="mono break">${
          parent
            ? html`<button type="button" class="link-button" onClick=${() => onSelect(parent.span_id)}>${parent.operation}</button> <span class="muted small">${parent.span_id}</span>`
            : span.parent_span_id || '— (root)'
        }</dd>
        <dt>Children</dt><dd>${children.length}</dd>
        <dt>Environment</dt><dd>${span.environment}</dd>
        <dt>Release</dt><dd>${span.release || '—'}</dd>
      </dl>
      <div class="row spread"><h3>Attributes</h3>${!isEmptyObject(attributes) && html`<${CopyButton} text=${prettyJson(attributes)} label="Copy JSON" testId="copy-attributes" />`}</div>
      <${JsonView} value=${attributes} />
      ${
        !isEmptyObject(resource) &&
        html`<h3>Resource</h3>
        <${JsonView} value=${resource} />`
      }
      <h3>Events${events.length ? ` (${events.length})` : ''}</h3>
      ${
        events.length === 0
          ? html`<span class="muted">none</span>`
          : html`<ol class="span-events" data-testid="span-events">
            ${events.map(
              (e) => html`<li>
                <span class="mono small">+${formatDuration(Math.max(0, Date.parse(e.timestamp) - start) || 0)}</span> <strong>${e.name}</strong>
                ${!isEmptyObject(e.attributes) && html`<${JsonView} value=${e.attributes} />`}
              </li>`,
            )}
          </ol>`
      }
      <h3>Links${links.length ? ` (${links.length})` : ''}</h3>
      ${
        links.length === 0
          ? html`<span class="muted">none</span>`
          : html`<ul class="span-links" data-testid="span-links">
            ${links.map(
              (l) => html`<li class="mono small break">
                ${l.trace_id ? html`<${Link} href=${projectHref(projectId, `traces/${encodeURIComponent(l.trace_id)}`)}>trace ${l.trace_id}</${Link}>` : 'trace —'}
                ${l.span_id && html` · span ${l.span_id}`}
              </li>`,
            )}
          </ul>`
      }
    </section>
  `;
}
