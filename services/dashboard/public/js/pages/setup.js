import { html } from 'htm/preact';
import { api } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { useSession } from '../lib/session.js';
import { AuthForm } from './auth-form.js';

export function SetupPage() {
  const { refresh } = useSession();
  const submit = async (username, password) => {
    await api('/auth/setup', { method: 'POST', body: { username, password } });
    await refresh();
    navigate('/projects', { replace: true });
  };
  return html`<${AuthForm}
    title="Create the owner account"
    intro="This is the first visit to this devtrail. The account you create now owns it: it sees every project and can add users."
    submitLabel="Create account"
    passwordHint="At least 8 characters."
    autocomplete="new-password"
    onSubmit=${submit}
  />`;
}
