import { html } from 'htm/preact';
import { ApiError, api, adminApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { Layout } from '../components/layout.js';
import { Loading, ErrorBox } from '../components/status.js';
import { NotFound } from './not-found.js';
import { LogsPage } from './logs.js';
import { ErrorsPage } from '../errors/errors-page.js';
import { ErrorGroupPage } from '../errors/error-group-page.js';
import { TracesPage } from './traces.js';
import { TracePage } from './trace.js';
import { LlmPage } from './llm.js';
import { LlmUserPage } from './llm-user.js';
import { PromptsPage } from '../prompts/prompts-page.js';
import { PromptPage } from '../prompts/prompt-page.js';
import { VersionPage } from '../prompts/version-page.js';
import { ReleasesPage } from './releases.js';
import { MetricsPage } from './metrics.js';
import { IngestionPage } from './ingestion.js';
import { SettingsPage } from './settings.js';
import { AlertsPage } from './alerts.js';

const PAGES = {
  logs: ['logs', LogsPage],
  errors: ['errors', ErrorsPage],
  'errors/:fingerprint': ['errors', ErrorGroupPage],
  traces: ['traces', TracesPage],
  'traces/:traceId': ['traces', TracePage],
  releases: ['releases', ReleasesPage],
  metrics: ['metrics', MetricsPage],
  llm: ['llm', LlmPage],
  'llm/users/:user': ['llm', LlmUserPage],
  'llm/prompts': ['llm', PromptsPage],
  'llm/prompts/:name': ['llm', PromptPage],
  'llm/prompts/:name/versions/:version': ['llm', VersionPage],
  ingestion: ['ingestion', IngestionPage],
  alerts: ['alerts', AlertsPage],
  settings: ['settings', SettingsPage],
};

/** Loads the project once for all its pages; a project the user may not see is "not found". */
export function ProjectFrame({ projectId, page, params }) {
  const { data, error, reload } = useData(() => api(adminApi(projectId)), projectId);
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return html`<${NotFound} what="Project" />`;
  if (error) return html`<${Layout}><${ErrorBox} error=${error} /></${Layout}>`;
  if (!data) return html`<${Layout}><${Loading} /></${Layout}>`;
  const [tab, Page] = PAGES[page];
  return html`<${Layout} project=${data.project} active=${tab}>
    <${Page} project=${data.project} params=${params} reloadProject=${reload} />
  </${Layout}>`;
}
