// Bundles the server (server/main.ts and everything it imports from server/ and common/) into dist/server/server.js,
// the guardian that starts it and enforces the stop's deadline (server/guardian.ts) into dist/server/main.js, what
// `npm start` runs, the `dbui` command line (server/cli/dbui.ts, package.json "bin") into dist/server/dbui.js, and
// chunks they share or load lazily beside them; `--outdir DIR` bundles into DIR instead (the fault tests build a
// private copy, so they run the checkout's code whatever dist/ holds).
// Third-party packages stay external and load from node_modules, except those in `bundled` below; our own
// #common/#server imports are bundled
// (esbuild's --packages=external would leave those external too: see STACK.md).
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Pure-JavaScript ES modules of hundreds of small files each are bundled, so a start parses one file instead of
// resolving and reading them one by one (issue 17 target 6: Kysely is 264 files, zod 99): kysely, and zod with the
// only package that imports it (fastify-type-provider-zod), so there is one copy of zod and its schema registry.
const bundled = new Set(['kysely', 'zod', 'fastify-type-provider-zod']);
const packages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})].filter(
  (name) => !bundled.has(name),
);
/** What the bundled packages import from other packages (@fastify/error) stays external too. */
const externalBelowBundled = {
  name: 'external-below-bundled',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, (args) => {
      const [scope = '', name = ''] = args.path.split('/');
      const packageName = scope.startsWith('@') ? `${scope}/${name}` : scope;
      if (args.path.startsWith('node:') || bundled.has(packageName)) return undefined;
      return args.importer.includes('/node_modules/') ? { path: args.path, external: true } : undefined;
    });
  },
};
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt > 0 ? process.argv[outdirAt + 1] : 'dist/server';
if (!outdir) throw new Error('--outdir needs a folder');

const options = {
  outdir,
  // Code our modules import dynamically (engine adapters, the demo seed, BullMQ) becomes chunks loaded when first
  // needed, so their drivers are not loaded at every start.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: packages.flatMap((name) => [name, `${name}/*`]),
  plugins: [externalBelowBundled],
  logLevel: 'warning',
};
// Separate builds, so the server's server.js stays whole: one build of several entries would move the code they share
// into chunks that every start then reads one by one. The other builds' chunks sit beside the server's (hashed names).
await Promise.all([
  build({ ...options, entryPoints: { main: 'server/guardian.ts' } }),
  build({ ...options, entryPoints: { server: 'server/main.ts' } }),
  build({ ...options, entryPoints: { dbui: 'server/cli/dbui.ts' } }),
]);
// The command line keeps its #! line, and runs as ./dbui.js (npm links the bin to it on install).
chmodSync(path.join(outdir, 'dbui.js'), 0o755);
