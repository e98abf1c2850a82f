// Bundles the server (server/main.ts and everything it imports from server/ and common/) into dist/server/main.js.
// Third-party packages stay external and load from node_modules; our own #common/#server imports are bundled
// (esbuild's --packages=external would leave those external too: see STACK.md).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const packages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: packages.flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
});
