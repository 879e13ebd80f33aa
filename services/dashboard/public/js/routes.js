import { html } from 'htm/preact';
import { match } from './lib/router.js';
import { useSession } from './lib/session.js';
import { SetupPage } from './pages/setup.js';
import { LoginPage } from './pages/login.js';
import { ProjectsPage } from './pages/projects.js';
import { UsersPage } from './pages/users.js';
import { LlmPricesPage } from './pages/llm-prices.js';
import { AccountPage } from './pages/account.js';
import { ProjectFrame } from './pages/project-frame.js';
import { NotFound } from './pages/not-found.js';

// Path -> page. Project pages share one frame that loads the project (and answers
// "not found" for projects the user may not see).
const PROJECT_PAGES = [
  'logs',
  'errors',
  'errors/:fingerprint',
  'traces',
  'traces/:traceId',
  'releases',
  'metrics',
  'llm',
  'llm/users/:user',
  'llm/prompts',
  'llm/prompts/:name',
  'llm/prompts/:name/versions/:version',
  'ingestion',
  'alerts',
  'settings',
];

export function Routes({ path }) {
  const { user } = useSession();
  if (path === '/setup') return html`<${SetupPage} />`;
  if (path === '/login') return html`<${LoginPage} />`;
  if (!user) return null;
  if (path === '/' || path === '/projects') return html`<${ProjectsPage} />`;
  if (path === '/users') return html`<${UsersPage} />`;
  if (path === '/llm-prices') return html`<${LlmPricesPage} />`;
  if (path === '/account') return html`<${AccountPage} />`;
  const root = match('/projects/:id', path);
  if (root) return html`<${ProjectFrame} projectId=${root.id} page="logs" params=${{}} />`;
  for (const page of PROJECT_PAGES) {
    const params = match(`/projects/:id/${page}`, path);
    if (params) return html`<${ProjectFrame} projectId=${params.id} page=${page} params=${params} />`;
  }
  return html`<${NotFound} />`;
}
