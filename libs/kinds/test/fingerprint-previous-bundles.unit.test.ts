import { describe, expect, it } from 'vitest';
import { previousFingerprint as fingerprint, normaliseFrames, normalisePath } from '../src/error/grouping/fingerprint-previous.ts';

// The previous rule (frozen, docs/fingerprint.md#upgrading) on minified browser stacks (docs/fingerprint.md, "Bundled JavaScript"): the same bug from two
// deploys of one release is one group, whatever host, deployment query or content hash the
// bundle's URL carries; the paths of other languages' frames are read as before.

const stack = (host: string, hash: string, dpl: string) =>
  [
    "TypeError: Cannot read properties of undefined (reading 'total')",
    `    at a (${host}/_next/static/chunks/app/page-${hash}.js${dpl}:1:${2000 + hash.length})`,
    `    at Object.onClick (${host}/_next/static/chunks/938-${hash.slice(0, 16)}.js${dpl}:1:5077)`,
    `    at ${host}/_next/static/chunks/${hash}.js${dpl}:2:14`,
  ].join('\n');

describe('fingerprints of bundled JavaScript', () => {
  it('one bug from two deploys of a release (other host, other hashes, other deployment id) is one group', () => {
    const one = fingerprint({
      error_message: "Cannot read properties of undefined (reading 'total')",
      stack_trace: stack('https://shop-3kd9.vercel.app', '8a7b6c5d4e3f2a1b', '?dpl=dpl_1'),
    });
    const two = fingerprint({
      error_message: "Cannot read properties of undefined (reading 'total')",
      stack_trace: stack('https://shop.example.com', '0f9e8d7c6b5a4321', '?dpl=dpl_2'),
    });
    expect(two).toBe(one);
  });

  it('another function in the same bundle is another group', () => {
    const a = fingerprint({ error_message: 'x', stack_trace: stack('https://h', '8a7b6c5d4e3f2a1b', '') });
    const b = fingerprint({ error_message: 'x', stack_trace: stack('https://h', '8a7b6c5d4e3f2a1b', '').replace('at a (', 'at b (') });
    expect(b).not.toBe(a);
  });

  it('masks Vite, webpack and Turbopack content hashes, and nothing in names without a digit', () => {
    expect(normalisePath('https://app.example.com/assets/index-BkX9a1_2.js')).toBe('assets/index-<hash>.js');
    expect(normalisePath('/_next/static/chunks/3f5a0d2b1c8e9f7a.js')).toBe('chunks/<hash>.js');
    expect(normalisePath('/static/js/main.2c1e9b3a.chunk.js')).toBe('js/main.<hash>.chunk.js');
    expect(normalisePath('/_next/static/chunks/main-app.js')).toBe('chunks/main-app.js');
    expect(normalisePath('/_next/static/chunks/0xl-0hx3v7nzr.js')).toBe('chunks/<hash>.js');
    expect(normalisePath('/_next/static/chunks/turbopack-0zq_vp9s-5ndp.js')).toBe('chunks/turbopack-<hash>.js');
    expect(normalisePath('/_next/static/0u5s6VbiFXUpenMZPr6bD/_buildManifest.js')).toBe('<hash>/_buildManifest.js');
    expect(normalisePath('/srv/app/handlers/orders.js')).toBe('handlers/orders.js');
  });

  it('leaves the paths of other languages as they were', () => {
    const py = 'Traceback (most recent call last):\n  File "/srv/app/jobs/sync_20240101abc.py", line 3, in run\nValueError: bad';
    expect(normaliseFrames(py)).toEqual(['run@jobs/sync_20240101abc.py']);
    const ts = 'Error: x\n    at load (/app/build-7f3a9c1d2e/src/users.ts:42:13)';
    expect(normaliseFrames(ts)).toEqual(['load@src/users.ts']);
  });
});
