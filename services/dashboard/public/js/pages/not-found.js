import { html } from 'htm/preact';
import { Layout } from '../components/layout.js';
import { Link } from '../lib/router.js';

export function NotFound({ what = 'Page' }) {
  return html`<${Layout}>
    <div class="empty" data-testid="not-found">
      <h1>${what} not found</h1>
      <p>It does not exist, or you are not a member of it.</p>
      <${Link} href="/projects">Back to projects</${Link}>
    </div>
  </${Layout}>`;
}
