import { html } from 'htm/preact';
import { api, projectApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';

// A JavaScript stack at its original source (docs/source-maps.md): each frame whose file has
// an uploaded source map shows file, line, column, function and the lines around it. Shown
// only when at least one map was found; the stored (minified) stack stays below it.

function Context({ ctx, line }) {
  if (!ctx) return null;
  return html`<pre class="stack source-context">${ctx.lines.map(
    (l, i) =>
      html`<div class=${ctx.start + i === line ? 'context-line current' : 'context-line'} data-testid=${ctx.start + i === line ? 'source-line' : null}><span class="muted">${String(ctx.start + i).padStart(5)} </span>${l}</div>`,
  )}</pre>`;
}

export function SymbolicatedStack({ projectId, fingerprint, eventId }) {
  const { data } = useData(
    () => api(projectApi(projectId, `/error-groups/${encodeURIComponent(fingerprint)}/symbolicated`), { query: { event_id: eventId } }),
    `${projectId}|${fingerprint}|${eventId}`,
  );
  if (!data || data.maps_found === 0) return null;
  return html`<section class="card" data-testid="symbolicated-stack">
    <h2>Stack trace at the original source <span class="muted small">(release ${data.release})</span></h2>
    ${data.frames
      .filter((f) => f.minified)
      .map(
        (f) => html`<div class="frame">
          ${
            f.original
              ? html`<div class="mono"><strong>${f.original.function || '<anonymous>'}</strong> <span data-testid="original-location">${f.original.file}:${f.original.line}:${f.original.column}</span></div>
                <${Context} ctx=${f.original.context} line=${f.original.line} />`
              : html`<div class="mono muted">${f.raw.trim()}</div>`
          }
        </div>`,
      )}
  </section>`;
}
