// Makes the publishable package (docs/sdk.md#install): `npm pack` (its prepack step builds
// dist/ first) into .release/, then, with --publish, `npm publish` of that very tarball.
//
//   npm run release -w @devtrail/sdk               # .release/devtrail-sdk-<version>.tgz
//   npm run release -w @devtrail/sdk -- --publish  # and publish it (needs `npm login` to the registry)
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.release');
mkdirSync(out, { recursive: true });
const run = (args) => {
  const r = spawnSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout.trim();
};
const tarball = join(out, run(['pack', '--pack-destination', out]).split('\n').pop());
console.log(`packed ${tarball}`);
if (process.argv.includes('--publish')) {
  run(['publish', tarball, '--access', 'public']);
  console.log('published');
} else {
  console.log(`install it in an app with: npm install ${tarball}`);
}
