import { CLICKHOUSE_SCHEMA_USAGE } from './clickhouse-schema.ts';
import { REPLAY_USAGE } from './replay/replay-command.ts';
import { REDRIVE_USAGE } from './redrive-command.ts';
import { EMPTY_USAGE } from './replay/empty-range.ts';
import { detectLayout, uploadBuildMaps, type BuildLayout } from '@devtrail/source-maps/build';
import { notAdminApi } from './api-url.ts';

// Each command is one admin API call (an upload: one per map; replay: replay/replay-command.ts); output is human text, or JSON with --json.

export interface CliContext {
  apiUrl: string;
  token: string | undefined;
  json: boolean;
  out: (line: string) => void;
}

export class CliError extends Error {}

async function call(ctx: CliContext, method: string, path: string, body?: unknown): Promise<any> {
  if (!ctx.token) throw new CliError('no token: set DEVTRAIL_OPERATOR_TOKEN (an upload: DEVTRAIL_UPLOAD_TOKEN) or pass --token');
  let res: Response;
  try {
    res = await fetch(`${ctx.apiUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${ctx.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new CliError(`cannot reach ${ctx.apiUrl}: ${(err as Error).message}`);
  }
  const text = await res.text();
  let data: any;
  try {
    data = JSON.parse(text);
  } catch {
    data = { error: text };
  }
  // A route this address does not have (the receiver's port, say): not a missing project.
  if (res.status === 404 && typeof data.error === 'string' && data.error.startsWith('Not found: ')) throw new CliError(notAdminApi(ctx.apiUrl, data.error));
  if (!res.ok) throw new CliError(`${res.status}: ${data.error?.issues ? JSON.stringify(data.error.issues) : (data.error ?? text)}`);
  return data;
}

const tokenRow = (t: any) => `${t.id}  ${t.prefix}…  ${t.name}  created ${t.created_at}  last used ${t.last_used_at ?? 'never'}`;

const row = (p: any) =>
  `${p.id}  ${p.name}  key ${p.key_prefix ?? '-'}…  limit ${p.rate_limit_per_minute}/min  origins ${p.allowed_origins.length ? p.allowed_origins.join(',') : '(all)'}${p.has_drain_secret ? '  drain-secret' : ''}`;

export const USAGE = `usage: devtrail <command> [--json] [--api URL] [--token TOKEN]

  project create <name> [--rate-limit N]   create a project; prints its API key once
  project list                             list projects
  project show <id>                        show a project (key prefix, origins, limits)
  key revoke <project-id>                  revoke the key; prints the new key once
  origins set <project-id> [domain ...]    replace allowed origins (none = allow all)
  rate-limit set <project-id> <per-minute> set the rate limit
  drain-secret set <project-id> <secret>   verify x-vercel-signature with this secret
  drain-secret clear <project-id>          stop verifying drain signatures
  login-link <username>                    a one-time link (15 min) that lets one browser log in
                                           as the user while the username is under attack
  upload-token create <project-id> <name>  create an upload token; prints it once
  upload-token list <project-id>           list a project's upload tokens (prefixes)
  upload-token revoke <project-id> <id>    revoke an upload token
  sourcemaps upload <project-id> <build-dir> --release R [--url-prefix ~/path]
                                           upload a build's source maps (Next.js, Vite;
                                           --token may be an upload token of the project)
${REPLAY_USAGE}
${EMPTY_USAGE}
${REDRIVE_USAGE}
${CLICKHOUSE_SCHEMA_USAGE}

env: DEVTRAIL_API_URL (default http://127.0.0.1:3000, npm start; with DEVTRAIL_MODE=distributed
     the dashboard's, http://127.0.0.1:$DASHBOARD_PORT, 3001), DEVTRAIL_OPERATOR_TOKEN,
     DEVTRAIL_UPLOAD_TOKEN (sourcemaps upload: used before the operator token)`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}

async function uploadMaps(ctx: CliContext, rest: string[]) {
  const release = flag(rest, '--release');
  const urlPrefix = flag(rest, '--url-prefix');
  const [projectId, dir] = rest;
  if (!projectId || !dir || !release) throw new CliError('sourcemaps upload needs <project-id> <build-dir> --release <release>');
  let layout: BuildLayout;
  try {
    layout = detectLayout(dir, urlPrefix);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  try {
    return { layout, ...(await uploadBuildMaps(projectId, layout, release, (path, body) => call(ctx, 'POST', path, body))) };
  } catch (err) {
    throw err instanceof CliError ? err : new CliError((err as Error).message);
  }
}

export async function runCommand(ctx: CliContext, argv: string[]): Promise<void> {
  const args = [...argv];
  const [noun, verb, ...rest] = args;
  const show = (data: unknown, text: string) => ctx.out(ctx.json ? JSON.stringify(data, null, 2) : text);
  if (noun === 'login-link') {
    if (!verb || rest.length > 0) throw new CliError('login-link needs <username>');
    const d = await call(ctx, 'POST', '/auth/login-links', { username: verb });
    const url = `${ctx.apiUrl.replace(/\/$/, '')}${d.path}`;
    return show({ ...d, url }, `Open this in the browser that should log in as ${d.username} (once, until ${d.expires_at}); the password is still needed:\n${url}`);
  }
  switch (`${noun} ${verb}`) {
    case 'sourcemaps upload': {
      const r = await uploadMaps(ctx, rest);
      return show(
        { uploaded: r.uploaded, without_map: r.withoutMap },
        `${r.layout.kind} build: uploaded ${r.uploaded.length} source maps under ${r.layout.urlPrefix}/ (${r.withoutMap.length} files without a map)`,
      );
    }
    case 'project create': {
      const limit = flag(rest, '--rate-limit');
      const name = rest.join(' ');
      if (!name) throw new CliError('project create needs a name');
      const d = await call(ctx, 'POST', '/api/admin/projects', { name, ...(limit ? { rate_limit_per_minute: Number(limit) } : {}) });
      return show(d, `${row(d.project)}\nAPI key (shown once, store it now): ${d.api_key}`);
    }
    case 'project list': {
      const d = await call(ctx, 'GET', '/api/admin/projects');
      return show(d, d.projects.length ? d.projects.map(row).join('\n') : '(no projects)');
    }
    case 'project show': {
      const d = await call(ctx, 'GET', `/api/admin/projects/${encodeURIComponent(rest[0] ?? '')}`);
      return show(d, row(d.project));
    }
    case 'key revoke': {
      const d = await call(ctx, 'POST', `/api/admin/projects/${encodeURIComponent(rest[0] ?? '')}/revoke-key`);
      return show(d, `old key revoked; new API key (shown once): ${d.api_key}`);
    }
    case 'upload-token create': {
      const [id, ...name] = rest;
      const d = await call(ctx, 'POST', `/api/projects/${encodeURIComponent(id ?? '')}/upload-tokens`, { name: name.join(' ') });
      return show(d, `${tokenRow(d.upload_token)}\nupload token (shown once, store it now): ${d.token}`);
    }
    case 'upload-token list': {
      const d = await call(ctx, 'GET', `/api/projects/${encodeURIComponent(rest[0] ?? '')}/upload-tokens`);
      return show(d, d.upload_tokens.length ? d.upload_tokens.map(tokenRow).join('\n') : '(no upload tokens)');
    }
    case 'upload-token revoke': {
      const [id, tokenId] = rest;
      await call(ctx, 'DELETE', `/api/projects/${encodeURIComponent(id ?? '')}/upload-tokens/${encodeURIComponent(tokenId ?? '')}`);
      return show({ revoked: tokenId }, `upload token ${tokenId} revoked`);
    }
    case 'origins set': {
      const [id, ...origins] = rest;
      const d = await call(ctx, 'PUT', `/api/admin/projects/${encodeURIComponent(id ?? '')}/allowed-origins`, { origins });
      return show(d, row(d.project));
    }
    case 'rate-limit set': {
      const d = await call(ctx, 'PUT', `/api/admin/projects/${encodeURIComponent(rest[0] ?? '')}/rate-limit`, { rate_limit_per_minute: Number(rest[1]) });
      return show(d, row(d.project));
    }
    case 'drain-secret set':
    case 'drain-secret clear': {
      const secret = verb === 'set' ? (rest[1] ?? '') : null;
      const d = await call(ctx, 'PUT', `/api/admin/projects/${encodeURIComponent(rest[0] ?? '')}/drain-secret`, { secret });
      return show(d, row(d.project));
    }
    default:
      throw new CliError(USAGE);
  }
}
