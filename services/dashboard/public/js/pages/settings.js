import { html } from 'htm/preact';
import { setQuery, useLocation } from '../lib/router.js';
import { ApiKeysTab } from './settings-keys.js';
import { OriginsTab, RateLimitTab } from './settings-ingest.js';
import { DrainTab } from './settings-drain.js';
import { MembersTab } from './settings-members.js';
import { QuotasTab, RetentionTab, ScrubbingTab } from './settings-data.js';
import { DeleteTab } from './settings-delete.js';
import { LlmTab } from './settings-llm.js';

/** @type {Array<[string, string, import('preact').FunctionComponent<any>]>} */
const TABS = [
  ['keys', 'API Keys', ApiKeysTab],
  ['origins', 'Allowed origins', OriginsTab],
  ['rate-limit', 'Rate limit', RateLimitTab],
  ['drain', 'Log drain', DrainTab],
  ['members', 'Members', MembersTab],
  ['retention', 'Retention', RetentionTab],
  ['scrubbing', 'Scrubbing', ScrubbingTab],
  ['quotas', 'Quotas & sampling', QuotasTab],
  ['llm', 'LLM content', LlmTab],
  ['delete', 'Delete data', DeleteTab],
];

export function SettingsPage({ project, reloadProject }) {
  const { query } = useLocation();
  const current = TABS.find(([id]) => id === query.get('tab')) || TABS[0];
  const Tab = current[2];
  return html`
    <div class="page-head"><h1>Settings</h1></div>
    <nav class="tabs small settings-tabs" role="tablist">
      ${TABS.map(
        ([id, label]) =>
          html`<button type="button" role="tab" aria-selected=${id === current[0]} class=${id === current[0] ? 'tab active' : 'tab'} onClick=${() => setQuery({ tab: id })}>${label}</button>`,
      )}
    </nav>
    <section class="card"><${Tab} project=${project} reloadProject=${reloadProject} /></section>
  `;
}
