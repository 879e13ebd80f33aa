// `npx devtrail-sourcemaps upload <build-dir> --release R --project ID [--url-prefix ~/path] [--api URL]`
// (docs/sdk.md#install): the admin CLI's upload (libs/source-maps/src/build-scan.ts),
// bundled by scripts/build.mjs into one file of the package, so an app uploads its build's maps
// with nothing more than the SDK installed. The token is a project upload token
// (DEVTRAIL_UPLOAD_TOKEN, dtu_…), else the operator token (DEVTRAIL_OPERATOR_TOKEN): the
// source-maps API never takes the ingest key (docs/security.md). It never appears in output.
import { detectLayout, uploadBuildMaps } from '@devtrail/source-maps/build';

const USAGE = `usage: devtrail-sourcemaps upload <build-dir> --release <release> --project <project-id> [--url-prefix ~/path] [--api URL]

  Uploads every source map of a Next.js (.next/static) or Vite (dist) build, or of any
  directory served at --url-prefix, to devtrail's dashboard API.

env: DEVTRAIL_UPLOAD_TOKEN (else DEVTRAIL_OPERATOR_TOKEN), DEVTRAIL_API_URL (default http://127.0.0.1:3000),
     DEVTRAIL_PROJECT_ID (for --project), DEVTRAIL_RELEASE (for --release)`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}

async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  const env = process.env;
  const release = flag(args, '--release') ?? env.DEVTRAIL_RELEASE;
  const project = flag(args, '--project') ?? env.DEVTRAIL_PROJECT_ID;
  const urlPrefix = flag(args, '--url-prefix');
  const api = (flag(args, '--api') ?? env.DEVTRAIL_API_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
  const token = env.DEVTRAIL_UPLOAD_TOKEN || env.DEVTRAIL_OPERATOR_TOKEN;
  const [command, dir] = args;
  if (command !== 'upload' || !dir || !release || !project) throw new Error(USAGE);
  if (!token) throw new Error('no token: set DEVTRAIL_UPLOAD_TOKEN (a project upload token: devtrail upload-token create)');
  const layout = detectLayout(dir, urlPrefix);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${res.status} from ${api}${path}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
  const r = await uploadBuildMaps(project, layout, release, post);
  console.log(
    `${layout.kind} build: uploaded ${r.uploaded.length} source maps under ${layout.urlPrefix}/ for release ${release} (${r.withoutMap.length} files without a map)`,
  );
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`devtrail-sourcemaps: ${err.message}`);
  process.exitCode = 1;
});
