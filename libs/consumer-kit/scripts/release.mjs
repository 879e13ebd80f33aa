// Builds the publishable @devtrail/consumer-kit and packs it (or publishes it): README.md,
// "Install"; docs/topics.md. The package is not on the public npm registry: install the
// tarball, or publish it to your organisation's registry, under your own scope if you like.
//
//   node scripts/release.mjs [--out DIR] [--publish] [--name @scope/name] [--registry URL] [--tag TAG]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
  return v;
};
// npm runs workspace scripts in the package's folder; INIT_CWD is where the command was typed.
const out = resolve(process.env.INIT_CWD ?? process.cwd(), opt('--out') ?? '.');
const npm = (...a) => execFileSync('npm', a, { cwd: dist, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
const name = opt('--name');
if (name) {
  const manifest = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
  writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ ...manifest, name }, null, 2)}\n`);
}
if (args.includes('--publish')) {
  const registry = opt('--registry');
  const tag = opt('--tag');
  npm('publish', ...(registry ? ['--registry', registry] : []), ...(tag ? ['--tag', tag] : []));
  console.log(`published ${name ?? '@devtrail/consumer-kit'}${registry ? ` to ${registry}` : ''}`);
} else {
  mkdirSync(out, { recursive: true });
  const [packed] = JSON.parse(npm('pack', '--json', '--pack-destination', out));
  const file = join(out, packed.filename);
  console.log(`packed ${file} (${packed.files.length} files, ${packed.size} bytes)\ninstall it in your project with:  npm install ${file}`);
}
