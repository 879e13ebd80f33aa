// Where the prompt pages live in the dashboard and the API (docs/dashboard.md, "Prompts").
import { projectApi } from '../lib/api.js';

/** @param {string} projectId */
export const promptsPage = (projectId) => `/projects/${encodeURIComponent(projectId)}/llm/prompts`;
/** @param {string} projectId @param {string} name */
export const promptPage = (projectId, name) => `${promptsPage(projectId)}/${encodeURIComponent(name)}`;
/** @param {string} projectId @param {string} name @param {number} version */
export const versionPage = (projectId, name, version) => `${promptPage(projectId, name)}/versions/${version}`;

/** @param {string} projectId */
export const promptsApi = (projectId, rest = '') => projectApi(projectId, `/prompts${rest}`);
/** @param {string} projectId @param {string} name */
export const promptApi = (projectId, name, rest = '') => promptsApi(projectId, `/${encodeURIComponent(name)}${rest}`);
