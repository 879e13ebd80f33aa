// Symbolication of a stack thrown by a real minified build (esbuild, names mangled) against the
// build's own source map: every frame shows its own function's original name, not its callee's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMap, symbolicate } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'dt-symbolicate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = `function explode(order) {
  if (order.total > 100) throw new Error('too big: ' + order.total);
  return order.total;
}
function checkout(order) {
  const total = explode(order);
  return total * 2;
}
function handleRequest(body) {
  return checkout({ total: body.n });
}
export function run(n) {
  return handleRequest({ n });
}
`;

describe('symbolicate a minified build (docs/source-maps.md)', () => {
  it("names each frame by its own function (the caller's call site names the callee)", async () => {
    writeFileSync(join(dir, 'app.js'), SOURCE);
    await build({ entryPoints: [join(dir, 'app.js')], bundle: true, minify: true, format: 'esm', sourcemap: true, outfile: join(dir, 'out/app.min.js') });
    const minified = readFileSync(join(dir, 'out/app.min.js'), 'utf8');
    expect(minified).not.toContain('function explode'); // the names really are mangled
    // Run by plain Node (a test runner's import would transform the file and its positions).
    const url = pathToFileURL(join(dir, 'out/app.min.js')).href;
    const stack = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `const { run } = await import(${JSON.stringify(url)}); try { run(500); } catch (e) { console.log(e.stack); }`],
      { encoding: 'utf8' },
    );
    const map = parseMap(readFileSync(join(dir, 'out/app.min.js.map'), 'utf8'));
    const frames = (await symbolicate(stack, async (key) => (key.endsWith('app.min.js') ? map : null))).filter((f) => f.original);
    expect(frames.map((f) => [f.original!.function, f.original!.line])).toEqual([
      ['explode', 2],
      ['checkout', 6],
      ['handleRequest', 10],
      // The outermost mapped frame's caller has no map: it keeps its minified name.
      [frames[3]?.minified?.function, 13],
    ]);
    expect(frames[3].minified!.function).not.toBe('handleRequest');
  });
});
