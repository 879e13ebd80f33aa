import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from './processes.ts';
import { welcomeOf } from './log-lines.ts';

// The embedded mode as `npm start` runs it (tsx services/embedded/src/main.ts), driven only
// through what it prints and its HTTP front door. A restart keeps the data directory, so
// the project and key printed on the first start stay valid.

export interface EmbeddedProcess {
  url: string;
  dataDir: string;
  operatorToken: string;
  /** The default project and its key, from the first start's start-up line. */
  project: { id: string; key: string };
  child: ChildProcess;
  output(): string;
  alive(): boolean;
  /** Starts it again on the same data directory and port (after a crash, say). */
  restart(): Promise<void>;
  stop(): Promise<number | null>;
  /** Stops it and removes the data directory. */
  close(): Promise<void>;
}

/** A new API key for the project (the old one stops working), through the admin API. */
export async function freshKey(url: string, operatorToken: string, projectId: string): Promise<string> {
  const res = await fetch(`${url}/api/admin/projects/${projectId}/revoke-key`, { method: 'POST', headers: { authorization: `Bearer ${operatorToken}` } });
  if (res.status !== 200) throw new Error(`revoke-key answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}

export async function startEmbeddedProcess(extraEnv: Record<string, string> = {}): Promise<EmbeddedProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-emb-proc-'));
  const port = await freePort();
  const operatorToken = `op_${randomBytes(16).toString('hex')}`;
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  let child!: ChildProcess;

  const launch = async () => {
    out = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'services/embedded/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DEVTRAIL_DATA_DIR: dataDir,
        DEVTRAIL_OPERATOR_TOKEN: operatorToken,
        LOG_LEVEL: 'warn',
        CONSUMER_BATCH_MS: '300',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (out = (out + d).slice(-50_000)));
    child.stderr!.on('data', (d) => (out = (out + d).slice(-50_000)));
    const deadline = Date.now() + 90_000;
    while (!out.includes('devtrail is running')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`embedded did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  await launch();
  // Not a terminal: the first start's project is a field of one JSON line (embedded welcome.ts);
  // keys are never logged, so the harness takes one as an operator would (revoke-key).
  const projectId = welcomeOf(out)?.project?.id;
  if (!projectId) throw new Error(`embedded start-up line without a project:\n${out}`);
  const key = await freshKey(url, operatorToken, projectId);

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  return {
    url,
    dataDir,
    operatorToken,
    project: { id: projectId, key },
    get child() {
      return child;
    },
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    async restart() {
      await stop();
      await launch();
    },
    stop,
    async close() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
