// `npm run audit:production`: no high or critical advisory in what DBUI ships, as .ci/run checks before the tests
// (docs/decisions/0021-node-20-browser-and-audit.md). What ships is the production dependencies (the server's) and the
// packages the web app imports: those are bundled into every visitor's JavaScript at build time, so npm counts React,
// react-router or Mantine core as development packages and `npm audit --omit=dev` would skip them
// (docs/decisions/0059-node-versions-and-dependencies.md). So the whole tree is audited and an advisory counts when
// it hits a package of either set (found with `npm query`: the packages and everything they depend on).
// When the advisory service cannot be asked (no network, or a registry mirror without the audit endpoint, as in
// this project's own CI sandbox) the check says so in one line and passes: a missing answer is not an advisory.
// AUDIT_STRICT=1 makes that a failure too, for a CI that must not ship unaudited.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The packages the web app's own code imports (web/ and common/, tests and their helpers left out). */
function browserPackages() {
  const names = new Set();
  const visit = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test' && entry.name !== 'node_modules') visit(file);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        // Type-only imports ship nothing.
        const code = fs.readFileSync(file, 'utf8').replace(/^import type .*$/gm, '');
        for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
          if (/^[./#]|^node:/.test(specifier)) continue;
          const parts = specifier.split('/');
          names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
        }
      }
    }
  };
  for (const folder of ['web', 'common']) visit(path.join(root, folder));
  return [...names].sort();
}

/** The locations (node_modules/…) `npm query` finds for a selector. */
function query(selector) {
  const run = spawnSync('npm', ['query', selector], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`npm query ${selector} failed: ${(run.stderr ?? '').trim()}`);
  return JSON.parse(run.stdout).map((node) => node.location);
}

const strict = process.env.AUDIT_STRICT === '1';
const run = spawnSync('npm', ['audit', '--json'], {
  cwd: root,
  encoding: 'utf8',
  shell: false,
  maxBuffer: 64 * 1024 * 1024,
});

/** The audit report, or null when npm printed none. */
function reportOf(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    return null;
  }
}

const report = reportOf(run.stdout ?? '');
const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const reason =
    report?.message ||
    report?.error?.summary ||
    (run.error ? run.error.message : (run.stderr ?? '').trim().split('\n').at(-1)) ||
    'no report';
  const line = `npm audit: the advisory service could not be asked (${reason}); production dependencies were NOT audited.`;
  if (strict) {
    console.error(`${line} AUDIT_STRICT=1: failing.`);
    process.exit(1);
  }
  console.warn(`${line} Passing; AUDIT_STRICT=1 would fail.`);
  process.exit(0);
}

const browser = browserPackages();
const declared = new Set(
  Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies ?? {}),
);
const browserRoots = browser.filter((name) => declared.has(name));
const rootsSelector = `:root > :is(${browserRoots.map((name) => `#${name}`).join(', ')})`;
// One query (npm reads the tree once): the production packages, the web app's, and all they depend on.
const shipped = new Set(
  query(browserRoots.length > 0 ? `.prod, ${rootsSelector}, ${rootsSelector} *` : '.prod'),
);
const ships = (entry) => (entry.nodes ?? []).some((location) => shipped.has(location));
const counted = Object.values(report.vulnerabilities ?? {}).filter(ships);
const serious = counted.filter((entry) => entry.severity === 'high' || entry.severity === 'critical');
if (serious.length > 0) {
  console.error('npm audit: high or critical advisories in what DBUI ships:');
  for (const entry of serious) {
    const advisories = entry.via
      .filter((via) => typeof via === 'object')
      .map((via) => `${via.title} (${via.url}, ${via.range})`);
    const through = entry.via.filter((via) => typeof via === 'string');
    const what = advisories.length > 0 ? advisories.join('; ') : `through ${through.join(', ')}`;
    console.error(`  ${entry.name} [${entry.severity}]: ${what}`);
  }
  console.error(
    'Update or override them (package.json "overrides"), then run npm run audit:production again.',
  );
  process.exit(1);
}
const minor = counted.length;
console.log(
  `npm audit: no high or critical advisory in production dependencies or the web app's packages (${shipped.size} packages; ${minor} low or moderate). Web packages audited beside the production ones: ${browserRoots.join(', ') || 'none'}.`,
);
