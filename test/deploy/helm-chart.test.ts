import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.ts';
import { STACK_REQUIRED } from '../support/stack.ts';

// The Helm chart (deploy/helm/devtrail) passes `helm lint --strict`, renders with its default
// values and with every option on, and every rendered object is valid against the Kubernetes
// API's JSON schemas (kubeconform -strict: unknown fields are errors). The tools are built by
// deploy/scripts/k8s-tools.sh install (make install).
const TOOLS = join(ROOT, '.devtrail/tools');
const installed = existsSync(join(TOOLS, 'bin/helm')) && existsSync(join(TOOLS, 'bin/kubeconform'));
const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });

describe.skipIf(!installed && !STACK_REQUIRED)(
  `Helm chart${installed || STACK_REQUIRED ? '' : ' (skipped: helm and kubeconform not built: deploy/scripts/k8s-tools.sh install)'}`,
  () => {
    it('lints, renders and validates against the Kubernetes schemas', { timeout: 180_000 }, () => {
      expect(installed, 'helm and kubeconform missing: run deploy/scripts/k8s-tools.sh install (make install does)').toBe(true);
      const r = run('bash', ['deploy/scripts/k8s-tools.sh', 'check']);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      const summaries = [...r.stdout.matchAll(/Summary: (\d+) resources found .* Valid: (\d+), Invalid: (\d+), Errors: (\d+), Skipped: (\d+)/g)];
      expect(summaries).toHaveLength(2);
      for (const [, found, valid, invalid, errors, skipped] of summaries) {
        expect([Number(valid), Number(invalid), Number(errors), Number(skipped)]).toEqual([Number(found), 0, 0, 0]);
      }
      const rendered = readFileSync(join(TOOLS, 'rendered/default.yaml'), 'utf8');
      for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap']) expect(rendered).toContain(`kind: ${kind}`);
      for (const path of ['/health', '/health/ready']) expect(rendered).toContain(`path: ${path}`);
      // Prometheus scrapes the receiver and the dashboard on their metrics port, which no Service exposes.
      expect(rendered).toContain('METRICS_PORT: "9464"');
      expect(rendered.match(/prometheus\.io\/port: "9464"/g)).toHaveLength(2);
      expect(rendered.match(/name: metrics, containerPort: 9464/g)).toHaveLength(2);
      const services = rendered.split(/^---$/m).filter((doc) => /^kind: Service$/m.test(doc));
      expect(services.length).toBeGreaterThan(0);
      for (const svc of services) expect(svc).not.toContain('9464');
    });

    it('is checked by a validator that refuses a wrong manifest', { timeout: 60_000 }, () => {
      const rendered = readFileSync(join(TOOLS, 'rendered/default.yaml'), 'utf8');
      const broken = join(TOOLS, 'rendered/broken.yaml');
      writeFileSync(broken, rendered.replace('terminationGracePeriodSeconds: 30', 'terminationGracePeriodSeconds: "thirty"\n      notAField: true'));
      const schemas = join(TOOLS, 'k8s-schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json');
      const r = run(join(TOOLS, 'bin/kubeconform'), ['-strict', '-summary', '-kubernetes-version', '1.33.0', '-schema-location', schemas, broken]);
      expect(r.status).not.toBe(0);
      expect(r.stdout).toMatch(/Invalid: [1-9]/);
    });
  },
);
