/*
 * `npm run size:web` (npm test runs it right after the build): the JavaScript a first visit of each budgeted route
 * loads, in bytes as the server sends it to a browser (the file's brotli copy where the build wrote one, else the file
 * itself: scripts/precompress.ts), summed from dist/web's Vite manifest: the entry (index.html's script) with every
 * chunk it imports statically, and the route's lazy modules with theirs, each file once. It fails when a route is over
 * its budget (decision 0056). A count of bytes in files, never a timing: the same build gives the same figure.
 *
 *   npm run size:web                                  the budgets below, on dist/web
 *   npm run size:web -- --dist DIR                    another build (a private copy of dist/web)
 *   npm run size:web -- --budget "database browser=200"  a route's budget in KiB for this run (to see it fail)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One route's budget: what its first visit loads lazily beyond the entry, and the most it may weigh. */
export interface RouteBudget {
  route: string;
  /** An address of the route, for the journey that checks the list against a real first visit. */
  example: string;
  /** KiB (1,024 bytes) of JavaScript as sent, brotli where the build compressed. */
  budgetKiB: number;
  /**
   * The modules a first visit imports lazily (their source paths, the manifest's keys), each with its static
   * imports. e2e/bundle-budget.spec.ts opens `example` in a fresh browser and checks that every script it loads is
   * counted here, so the list cannot leave out what a visit really loads.
   */
  lazy: string[];
}

/** Issue 34: the public home page at most 150 KiB, the database browser at most 250 KiB. */
export const routeBudgets: RouteBudget[] = [
  {
    route: 'public home',
    example: '/home',
    budgetKiB: 150,
    lazy: ['web/features/site/home-page.tsx'],
  },
  {
    route: 'database browser',
    example: '/db/demo/main/order_lines',
    budgetKiB: 250,
    lazy: [
      // The page, TanStack Query's client, and what the signed-in shell loads beside it (web/routes.tsx,
      // web/session, the header's account menu and database dropdown).
      'web/features/browser/browser-page.tsx',
      'web/api/query-client.ts',
      'web/session/storage.ts',
      'web/api/account/verify.ts',
      'web/features/site/account-menu-data.tsx',
      'web/features/browser/database-select.tsx',
    ],
  },
];

/** A chunk in Vite's manifest (dist/web/.vite/manifest.json), by its key (a source path, or `_name-hash.js`). */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The manifest of a built web app, or an error that says how to make one. */
export function readManifest(webRoot: string): Manifest {
  const file = path.join(webRoot, '.vite', 'manifest.json');
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing: build the web app first (npm run build:web).`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/**
 * The script files a first visit loads: the entries' chunks and the `lazy` modules' chunks, each with every chunk
 * it imports statically (transitively); dynamic imports are not followed, since they load only when used. A lazy
 * module that is not in the manifest is an error: the list is out of date (a file renamed, or merged into another
 * chunk).
 */
export function firstVisitScripts(manifest: Manifest, lazy: readonly string[]): string[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  if (entries.length === 0) throw new Error('The manifest has no entry chunk.');
  const missing = lazy.filter((key) => !manifest[key]);
  if (missing.length > 0)
    throw new Error(
      `Not in the build's manifest: ${missing.join(', ')}. Update the route's list in scripts/bundle-budget.ts.`,
    );
  const seen = new Map<string, ManifestChunk>();
  const stack = [...entries, ...lazy];
  for (let key = stack.pop(); key !== undefined; key = stack.pop()) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest names ${key} as an import but has no such chunk.`);
    seen.set(key, chunk);
    stack.push(...(chunk.imports ?? []));
  }
  const files = [...seen.values()].map((chunk) => chunk.file).filter((file) => /\.m?js$/.test(file));
  return [...new Set(files)].sort();
}

/** Bytes the server sends for `file` to a browser that accepts brotli: `file.br` when the build wrote it. */
export function servedBytes(webRoot: string, file: string): number {
  const full = path.join(webRoot, file);
  const compressed = `${full}.br`;
  return fs.statSync(fs.existsSync(compressed) ? compressed : full).size;
}

export interface RouteSize {
  route: string;
  budgetKiB: number;
  files: string[];
  /** The files' own bytes. */
  bytes: number;
  /** As sent (brotli where compressed). */
  servedBytes: number;
  over: boolean;
}

/** Every route's first-visit JavaScript in a built web app, against its budget. */
export function measureRoutes(webRoot: string, budgets: readonly RouteBudget[] = routeBudgets): RouteSize[] {
  const manifest = readManifest(webRoot);
  return budgets.map((budget) => {
    const files = firstVisitScripts(manifest, budget.lazy);
    const bytes = files.reduce((sum, file) => sum + fs.statSync(path.join(webRoot, file)).size, 0);
    const served = files.reduce((sum, file) => sum + servedBytes(webRoot, file), 0);
    return {
      route: budget.route,
      budgetKiB: budget.budgetKiB,
      files,
      bytes,
      servedBytes: served,
      over: served > budget.budgetKiB * 1024,
    };
  });
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** One line a route: its files, its bytes, as sent, against its budget. */
export function describeSizes(sizes: readonly RouteSize[]): string[] {
  return sizes.map(
    (size) =>
      `${size.over ? 'OVER ' : 'ok   '} ${size.route}: ${kib(size.servedBytes)} as sent (brotli) of ${size.budgetKiB} KiB, ` +
      `${size.files.length} files, ${kib(size.bytes)} uncompressed`,
  );
}

/** `--budget "route=KiB"` overrides and `--dist DIR`, from the command line. */
function parseArguments(args: string[]): { webRoot: string; budgets: RouteBudget[] } {
  let webRoot = 'dist/web';
  const budgets = routeBudgets.map((budget) => ({ ...budget }));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = args[i + 1];
    if (arg === '--dist' && value) {
      webRoot = value;
      i++;
    } else if (arg === '--budget' && value) {
      const [route, amount] = value.split('=');
      const budget = budgets.find((b) => b.route === route);
      if (!budget || !amount || !Number.isFinite(Number(amount)))
        throw new Error(
          `--budget takes "route=KiB" with a route of ${budgets.map((b) => `"${b.route}"`).join(', ')}; got "${value}".`,
        );
      budget.budgetKiB = Number(amount);
      i++;
    } else {
      throw new Error(`Unknown argument ${arg}. Usage: size:web [--dist DIR] [--budget "route=KiB"]…`);
    }
  }
  return { webRoot, budgets };
}

function main(): void {
  try {
    const { webRoot, budgets } = parseArguments(process.argv.slice(2));
    const sizes = measureRoutes(path.resolve(webRoot), budgets);
    console.log(describeSizes(sizes).join('\n'));
    const over = sizes.filter((size) => size.over);
    if (over.length > 0) {
      console.error(
        `JavaScript budget broken: ${over.map((s) => s.route).join(', ')}. See docs/decisions/0056-lean-bundle-and-budgets.md ` +
          'for how the figure is made and what to do.',
      );
      process.exit(1);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
