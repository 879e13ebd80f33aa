import { html } from 'htm/preact';
import { formatNumber } from '../lib/format.js';

// An error group's tags: for release, environment, service, browser, OS and each context key,
// its most frequent values with their share of the group's events (docs/dashboard.md).

const TITLES = { release: 'Release', environment: 'Environment', service: 'Service', browser: 'Browser', os: 'OS' };

/** @param {{ tags: Array<{ key: string, values: Array<{ value: string, count: number }> }>, total: number }} props */
export function TagBreakdown({ tags, total }) {
  if (tags.length === 0) return html`<p class="muted">No tags.</p>`;
  return html`<div class="tag-grid" data-testid="group-tags">
    ${tags.map(
      (t) => html`<div class="tag-block" data-testid="group-tag">
        <h3 title=${t.key}>${TITLES[t.key] ?? t.key.replace(/^context\./, '')}</h3>
        ${t.values.map((v) => {
          const share = total > 0 ? Math.min(100, Math.round((v.count / total) * 100)) : 0;
          return html`<div class="tag-value">
            <span class="tag-bar" style=${{ width: `${share}%` }}></span>
            <span class="tag-name" title=${v.value}>${v.value}</span>
            <span class="tag-count">${formatNumber(v.count)} · ${share}%</span>
          </div>`;
        })}
      </div>`,
    )}
  </div>`;
}
