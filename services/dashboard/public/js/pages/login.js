import { html } from 'htm/preact';
import { api } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { useSession } from '../lib/session.js';
import { AuthForm } from './auth-form.js';
import { safeNext } from '../lib/next-page.js';

export function LoginPage() {
  const { refresh } = useSession();
  const submit = async (username, password) => {
    await api('/auth/login', { method: 'POST', body: { username, password } });
    await refresh();
    navigate(safeNext(new URLSearchParams(location.search).get('next')) ?? '/projects', { replace: true });
  };
  return html`<${AuthForm} title="Log in" submitLabel="Log in" autocomplete="current-password" onSubmit=${submit} />`;
}
