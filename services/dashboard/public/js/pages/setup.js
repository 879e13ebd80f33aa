import { html } from 'htm/preact';
import { api } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { useSession } from '../lib/session.js';
import { AuthForm } from './auth-form.js';

export function SetupPage() {
  const { refresh } = useSession();
  const submit = async (username, password, code) => {
    await api('/auth/setup', { method: 'POST', body: { username, password, setup_code: code } });
    await refresh();
    navigate('/projects', { replace: true });
  };
  return html`<${AuthForm}
    title="Create the owner account"
    intro="No one owns this devtrail yet. The account you create now owns it: it sees every project and can add users."
    codeLabel="Setup code"
    codeHint="Printed on the terminal where devtrail started (also in the setup-code file of its data directory), or the operator token."
    submitLabel="Create account"
    passwordHint="At least 12 characters."
    autocomplete="new-password"
    onSubmit=${submit}
  />`;
}
