// `npm pack` / `npm publish` here would pack the kit's TypeScript sources, which import
// devtrail's private workspace packages: a tarball that cannot be installed. The publishable
// package is built into dist/ (scripts/build.mjs); scripts/release.mjs builds and packs it.
console.error(`@devtrail/consumer-kit: not packed from its sources (they import devtrail's private workspace packages).
Build and pack the publishable package instead, from the repository's root:

  npm run release -w @devtrail/consumer-kit                  # builds libs/consumer-kit/dist and packs it here
  npm run release -w @devtrail/consumer-kit -- --out DIR     # the tarball into DIR
  npm run release -w @devtrail/consumer-kit -- --publish [--name @your-scope/devtrail-consumer-kit] [--registry URL]

(npm pack in libs/consumer-kit/dist, once built, packs the same package.)`);
process.exit(1);
