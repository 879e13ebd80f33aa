import { html } from 'htm/preact';
import { api } from '../lib/api.js';
import { useSession } from '../lib/session.js';
import { AuthForm } from './auth-form.js';

export function LoginPage() {
  const { refresh } = useSession();
  const submit = async (username, password) => {
    await api('/auth/login', { method: 'POST', body: { username, password } });
    // Signed in, the app leaves this page for ?next= or the projects (main.js).
    await refresh();
  };
  return html`<${AuthForm} title="Log in" submitLabel="Log in" autocomplete="current-password" onSubmit=${submit} />`;
}
