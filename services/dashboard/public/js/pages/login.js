import { html } from 'htm/preact';
import { api, ApiError } from '../lib/api.js';
import { useSession } from '../lib/session.js';
import { AuthForm } from './auth-form.js';

// While someone guesses at a username from elsewhere, a browser that never logged in as it waits
// (429); a login link from the operator makes this browser a trusted one (docs/security.md#logins).
const LINK_HINT = 'If this goes on, ask the operator for a one-time login link (devtrail login-link <username>) and open it in this browser.';

export function LoginPage() {
  const { refresh } = useSession();
  const submit = async (username, password) => {
    try {
      await api('/auth/login', { method: 'POST', body: { username, password } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) throw new Error(`${err.message}. ${LINK_HINT}`);
      throw err;
    }
    // Signed in, the app leaves this page for ?next= or the projects (main.js).
    await refresh();
  };
  return html`<${AuthForm} title="Log in" submitLabel="Log in" autocomplete="current-password" onSubmit=${submit} />`;
}
