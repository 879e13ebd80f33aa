import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { CopyButton } from './copy-button.js';
import { ingestBase, useSession } from '../lib/session.js';

function sdkSnippet(key, base) {
  return `// npm install @devtrail/sdk
import { createClient } from '@devtrail/sdk';

const devtrail = createClient({
  apiKey: '${key}',            // or process.env.DEVTRAIL_API_KEY
  baseUrl: '${base}',
  service: 'my-service',
});

devtrail.logger.info('hello devtrail', { from: 'sdk' });`;
}

function curlSnippet(key, base) {
  return `curl -X POST '${base}/ingest/logs' \\
  -H 'Authorization: Bearer ${key}' \\
  -H 'Content-Type: application/json' \\
  -d '{"service":"my-service","logs":[{"level":"info","message":"hello devtrail"}]}'`;
}

/** A raw API key, shown once, with a copy button and ready-to-paste snippets. */
export function KeyReveal({ apiKey, onDone }) {
  const { config } = useSession();
  const base = ingestBase(config);
  const [tab, setTab] = useState('sdk');
  const snippet = tab === 'sdk' ? sdkSnippet(apiKey, base) : curlSnippet(apiKey, base);
  return html`
    <div class="key-reveal" role="region" aria-label="New API key">
      <p class="warning">Copy this key now. It is shown only once; devtrail keeps only its hash.</p>
      <div class="key-line">
        <code class="api-key" data-testid="new-api-key">${apiKey}</code>
        <${CopyButton} text=${apiKey} label="Copy key" testId="copy-key" />
      </div>
      <div class="tabs small">
        <button type="button" class=${tab === 'sdk' ? 'tab active' : 'tab'} onClick=${() => setTab('sdk')}>SDK (@devtrail/sdk)</button>
        <button type="button" class=${tab === 'curl' ? 'tab active' : 'tab'} onClick=${() => setTab('curl')}>curl</button>
      </div>
      <div class="snippet">
        <pre data-testid="snippet">${snippet}</pre>
        <${CopyButton} text=${snippet} label="Copy snippet" />
      </div>
      ${onDone && html`<button type="button" class="btn" onClick=${onDone}>I have stored the key</button>`}
    </div>
  `;
}
