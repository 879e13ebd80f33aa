import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { createClickHouseStore } from '@devtrail/column-store';
import { createTestDatabase } from '../support/pg-database.ts';
import { freePort, ROOT } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, STACK_REQUIRED, stackUp } from '../support/stack.ts';

// The chart installed with its default values can be claimed (docs/deployment.md#helm): the
// dashboard's Deployment, as `helm template` renders it, is run here (its command, the ConfigMap's
// and its own environment, the operator token from the Secret the chart makes, its data directory
// on a directory standing for the volume it mounts; only the backends' addresses are the local
// stack's), and the owner is claimed as NOTES.txt says. NetworkPolicies admit only the receiver's
// and the dashboard's HTTP ports from outside the namespace. No Kubernetes runs here.
const TOOLS = join(ROOT, '.devtrail/tools');
const HELM = join(TOOLS, 'bin/helm');
const installed = existsSync(HELM);
const up = await stackUp();
const RELEASE = 'devtrail';
const NAMESPACE = 'devtrail';
const CHART = join(ROOT, 'deploy/helm/devtrail');
const helmEnv = { ...process.env, HELM_CACHE_HOME: join(TOOLS, 'helm-cache'), HELM_CONFIG_HOME: join(TOOLS, 'helm-config'), HELM_DATA_HOME: join(TOOLS, 'helm-data') };

type Manifest = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };

function helmTemplate(chart: string, args: string[] = []): string {
  const r = spawnSync(HELM, ['template', RELEASE, chart, '--namespace', NAMESPACE, '--kube-version', '1.33.0', ...args], {
    encoding: 'utf8',
    env: helmEnv,
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

/** NOTES.txt as Helm renders it: `helm template` leaves it out, so a copy of the chart renders it into a ConfigMap. */
function renderNotes(): string {
  const copy = mkdtempSync(join(tmpdir(), 'dt-chart-'));
  try {
    cpSync(CHART, copy, { recursive: true });
    const notes = readFileSync(join(copy, 'templates/NOTES.txt'), 'utf8');
    rmSync(join(copy, 'templates/NOTES.txt'));
    writeFileSync(join(copy, 'templates/_notes.tpl'), `{{- define "test.notes" -}}\n${notes}{{- end -}}\n`);
    writeFileSync(
      join(copy, 'templates/notes.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: notes }\ndata:\n  notes: {{ include "test.notes" . | quote }}\n',
    );
    const [doc] = parseAllDocuments(helmTemplate(copy, ['--show-only', 'templates/notes.yaml'])).map((d) => d.toJS() as Manifest);
    return doc.data!.notes;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

describe.skipIf(!(installed && up) && !STACK_REQUIRED)(
  `Helm chart, default values${installed && up ? '' : ` (skipped: ${installed ? NO_STACK_REASON : 'helm not built: deploy/scripts/k8s-tools.sh install'})`}`,
  () => {
    let manifests: Manifest[];
    let notes: string;
    const find = (kind: string, name: string) => {
      const m = manifests.find((x) => x.kind === kind && x.metadata.name === name);
      if (!m) throw new Error(`no ${kind} ${name} rendered`);
      return m;
    };

    beforeAll(() => {
      expect(installed, 'helm missing: run deploy/scripts/k8s-tools.sh install (make install does)').toBe(true);
      manifests = parseAllDocuments(helmTemplate(CHART))
        .map((d) => d.toJS() as Manifest | null)
        .filter((m): m is Manifest => m !== null);
      notes = renderNotes();
    });

    it('admits only the receiver and the dashboard from outside the namespace, on their HTTP port', () => {
      const policies = manifests.filter((m) => m.kind === 'NetworkPolicy');
      const workloads = manifests.filter((m) => m.kind === 'Deployment');
      expect(workloads.map((d) => d.spec.template.metadata.labels['app.kubernetes.io/component']).sort()).toEqual(['consumers-all', 'dashboard', 'receiver']);
      // Every pod the chart runs is selected by policies (policyTypes: Ingress); what they admit adds up.
      for (const d of workloads) {
        const labels = d.spec.template.metadata.labels;
        const mine = policies.filter((p) => Object.entries(p.spec.podSelector.matchLabels).every(([k, v]) => labels[k] === v));
        expect(mine.length, d.metadata.name).toBeGreaterThan(0);
        for (const p of mine) expect(p.spec.policyTypes).toEqual(['Ingress']);
        const rules = mine.flatMap((p) => p.spec.ingress as Array<{ from?: unknown[]; ports?: unknown[] }>);
        const component = labels['app.kubernetes.io/component'];
        // A rule without `from` admits every source: only the public HTTP port, only for the two public services.
        expect(
          rules.filter((r) => !r.from),
          component,
        ).toEqual(component.startsWith('consumers') ? [] : [{ ports: [{ port: 'http', protocol: 'TCP' }] }]);
        expect(
          rules.filter((r) => r.from),
          component,
        ).toEqual([{ from: [{ podSelector: {} }] }]);
        const http = d.spec.template.spec.containers[0].ports.find((port: { name: string }) => port.name === 'http');
        expect(http, component).toBeDefined();
      }
    });

    it('is claimed with the operator token the chart makes, following NOTES.txt, by the dashboard as the Deployment runs it', { timeout: 180_000 }, async () => {
      const fullname = RELEASE; // the release's name holds the chart's
      // NOTES.txt step 1: the token is in the Secret the chart made.
      const secretCommand = `kubectl get secret --namespace ${NAMESPACE} ${fullname}-operator-token -o jsonpath='{.data.operator-token}' | base64 -d; echo`;
      expect(notes).toContain(secretCommand);
      const secret = find('Secret', `${fullname}-operator-token`);
      const token = Buffer.from(secret.data!['operator-token'], 'base64').toString('utf8');
      expect(token).toMatch(/^dto_[A-Za-z0-9]{48}$/);
      // Step 2: the port-forward reaches the dashboard's container port through its Service.
      const svc = find('Service', `${fullname}-dashboard`);
      expect(notes).toContain(`kubectl port-forward --namespace ${NAMESPACE} svc/${fullname}-dashboard 3001:${svc.spec.ports[0].port}`);
      expect(svc.spec.ports[0].targetPort).toBe('http');
      expect(notes).toContain('http://127.0.0.1:3001/setup');

      // The dashboard's pod as rendered: read-only root, its data directory on a volume it mounts.
      const deployment = find('Deployment', `${fullname}-dashboard`);
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
      const env: Record<string, string> = {};
      for (const from of container.envFrom) Object.assign(env, find('ConfigMap', from.configMapRef.name).data);
      const dataBase = await createTestDatabase();
      for (const e of container.env) {
        if (e.value !== undefined) env[e.name] = String(e.value);
        else if (e.valueFrom.secretKeyRef.name === secret.metadata.name) env[e.name] = Buffer.from(secret.data![e.valueFrom.secretKeyRef.key], 'base64').toString();
        // The PostgreSQL Secret is the operator's own (created before the install): the local stack's.
        else if (e.name === 'DATABASE_URL') env[e.name] = dataBase.url;
        else throw new Error(`unexpected secret ${e.valueFrom.secretKeyRef.name}`);
      }
      const mount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === env.DEVTRAIL_DATA_DIR);
      expect(mount, `DEVTRAIL_DATA_DIR ${env.DEVTRAIL_DATA_DIR} is on no volume`).toBeDefined();
      const volume = pod.volumes.find((v: { name: string }) => v.name === mount.name);
      expect(volume.emptyDir ?? volume.persistentVolumeClaim).toBeDefined();
      const dataDir = mkdtempSync(join(tmpdir(), 'dt-helm-data-'));
      const port = await freePort();
      const ns = `helm_${Date.now().toString(36)}`;
      const local = {
        ...env,
        DEVTRAIL_DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        DASHBOARD_PORT: String(port),
        ...(env.METRICS_PORT ? { METRICS_PORT: String(await freePort()) } : {}),
        KAFKA_BROKERS: STACK.kafkaBrokers.join(','),
        KAFKA_REPLICATION_FACTOR: '1',
        KAFKA_TOPIC_PREFIX: `${ns}.`,
        CLICKHOUSE_URL: STACK.clickhouseUrl,
        CLICKHOUSE_DATABASE: ns,
      };
      const [command, ...args] = container.command as string[];
      expect(command).toBe('node');
      let output = '';
      const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, ...local }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      const base = `http://127.0.0.1:${port}`;
      try {
        const deadline = Date.now() + 120_000;
        while (
          !(await fetch(`${base}/health`).then(
            (r) => r.ok,
            () => false,
          ))
        ) {
          if (child.exitCode !== null || Date.now() > deadline) throw new Error(`dashboard did not start:\n${output}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        // The pod can write its setup code: the volume is writable (the claim below uses the token).
        expect(readFileSync(join(dataDir, 'setup-code'), 'utf8')).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}\n$/);
        expect((await fetch(`${base}/setup`)).status).toBe(200);
        // Step 3: the setup form, as the browser sends it: the pre-session cookie and CSRF token, the token as the code.
        const me = await fetch(`${base}/auth/me`);
        const cookie = me.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
        const { csrf_token, setup_needed } = (await me.json()) as { csrf_token: string; setup_needed: boolean };
        expect(setup_needed).toBe(true);
        const claim = await fetch(`${base}/auth/setup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf_token },
          body: JSON.stringify({ username: 'owner', password: 'owner-password-123', setup_code: token }),
        });
        expect(claim.status, await claim.clone().text()).toBe(201);
        expect(((await claim.json()) as { user: { is_owner: boolean } }).user.is_owner).toBe(true);
        expect(existsSync(join(dataDir, 'setup-code'))).toBe(false);
        // The token on the admin API, as NOTES.txt shows.
        expect(notes).toContain('curl -H "Authorization: Bearer <token>" http://127.0.0.1:3001/api/admin/projects');
        expect((await fetch(`${base}/api/admin/projects`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
        rmSync(dataDir, { recursive: true, force: true });
        await dataBase.drop().catch(() => {});
        const admin = createClickHouseStore({ url: STACK.clickhouseUrl, database: 'default' });
        await admin.command(`DROP DATABASE IF EXISTS ${ns}`).catch(() => {});
        await admin.close();
      }
    });

    it('docs/deployment.md gives the install steps NOTES.txt gives', () => {
      const doc = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8');
      const section = doc.slice(doc.indexOf('## Helm'));
      const steps = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
      expect(steps).toContain(`helm install ${RELEASE} deploy/helm/devtrail --namespace ${NAMESPACE}`);
      for (const line of notes.split('\n').filter((l) => /^\s+(kubectl|curl) /.test(l))) expect(steps, line.trim()).toContain(line.trim());
    });
  },
);
