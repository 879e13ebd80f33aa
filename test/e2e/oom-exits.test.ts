import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.ts';

// A process that runs out of heap exits, so a supervisor restarts it, rather than hangs
// (docs/operations.md, "Memory"). libchdb's signal handlers used to turn V8's out-of-memory
// abort into a hang in any process that had opened the embedded column store (the embedded
// mode, `npm start`): libs/column-store/src/abort-exits.ts. A child process opens the chdb
// store as the embedded mode does, then allocates past a 64 MB heap.

const dir = mkdtempSync(join(tmpdir(), 'dt-oom-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = `
import { createChdbStore } from '@devtrail/column-store/chdb';
const store = createChdbStore(${JSON.stringify(join(dir, 'ch'))}, 'oom');
await store.ping();
console.log('store open; allocating');
const keep = [];
for (;;) keep.push(new Array(1e5).fill({ n: Math.random() }));
`;

describe('out of memory', () => {
  it('a process with the embedded column store open exits (SIGABRT) rather than hangs', async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=64', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out = (out + d).slice(-4000)));
    const started = Date.now();
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'hung'>((resolve) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('hung');
      }, 45_000);
      child.on('exit', (code, signal) => {
        clearTimeout(t);
        resolve({ code, signal });
      });
    });
    console.log(`out of memory: ${JSON.stringify(ended)} after ${Date.now() - started} ms`);
    expect(out).toContain('store open; allocating');
    expect(out).toMatch(/heap out of memory|Reached heap limit/);
    expect(ended).not.toBe('hung');
    expect(ended === 'hung' ? null : (ended.signal ?? ended.code)).toSatisfy((v: unknown) => v === 'SIGABRT' || v === 134);
  }, 60_000);
});
