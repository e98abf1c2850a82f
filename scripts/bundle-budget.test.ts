import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '#server/test/test-app.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import {
  firstVisitScripts,
  measureRoutes,
  routeBudgets,
  type Manifest,
  type RouteBudget,
} from './bundle-budget.ts';

/*
 * The size check of decision 0056 on a made-up build: what it counts for a first visit, the bytes as sent, and the
 * command's exit status when a budget holds and when it is broken.
 */

/** A build as Vite writes it: the entry with two chunks it imports, a lazy page with its own, one more lazy page. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-1.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_react-1.js', '_shared-1.js'],
    dynamicImports: ['web/page.tsx', 'web/other-page.tsx'],
    css: ['assets/index-1.css'],
  },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_shared-1.js': { file: 'assets/shared-1.js', imports: ['_react-1.js'] },
  'web/page.tsx': {
    file: 'assets/page-1.js',
    src: 'web/page.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_shared-1.js', '_grid-1.js'],
    dynamicImports: ['web/editor.tsx'],
    css: ['assets/page-1.css'],
  },
  '_grid-1.js': { file: 'assets/grid-1.js', imports: ['_react-1.js'] },
  'web/editor.tsx': { file: 'assets/editor-1.js', src: 'web/editor.tsx', isDynamicEntry: true },
  'web/other-page.tsx': { file: 'assets/other-page-1.js', src: 'web/other-page.tsx', isDynamicEntry: true },
};
/** Each file's size, and its brotli copy's where the build wrote one (tiny files have none). */
const sizes: Record<string, [number, number | null]> = {
  'assets/index-1.js': [40_000, 10_000],
  'assets/react-1.js': [100_000, 30_000],
  'assets/shared-1.js': [200, null],
  'assets/page-1.js': [20_000, 6_000],
  'assets/grid-1.js': [12_000, 4_000],
  'assets/editor-1.js': [90_000, 25_000],
  'assets/other-page-1.js': [9_000, 3_000],
  'assets/index-1.css': [8_000, 2_000],
  'assets/page-1.css': [3_000, 1_000],
};

describe('the size check', () => {
  const dir = tempDir();
  const root = path.join(dir.path, 'web');
  const budgets: RouteBudget[] = [
    { route: 'home', example: '/', budgetKiB: 40, lazy: [] },
    { route: 'page', example: '/page', budgetKiB: 51, lazy: ['web/page.tsx'] },
  ];

  beforeAll(() => {
    fs.mkdirSync(path.join(root, '.vite'), { recursive: true });
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, '.vite', 'manifest.json'), JSON.stringify(manifest));
    for (const [file, [bytes, br]] of Object.entries(sizes)) {
      fs.writeFileSync(path.join(root, file), Buffer.alloc(bytes, 'a'));
      if (br !== null) fs.writeFileSync(path.join(root, `${file}.br`), Buffer.alloc(br, 'b'));
    }
  });
  afterAll(() => dir.remove());

  it("counts the entry and the route's lazy modules with their static imports, each script once", () => {
    expect(firstVisitScripts(manifest, [])).toEqual([
      'assets/index-1.js',
      'assets/react-1.js',
      'assets/shared-1.js',
    ]);
    expect(firstVisitScripts(manifest, ['web/page.tsx'])).toEqual([
      'assets/grid-1.js',
      'assets/index-1.js',
      'assets/page-1.js',
      'assets/react-1.js',
      'assets/shared-1.js',
    ]);
  });

  it('refuses a lazy module the build does not have, so a stale list cannot pass', () => {
    expect(() => firstVisitScripts(manifest, ['web/gone.tsx'])).toThrow(/web\/gone\.tsx.*bundle-budget\.ts/);
  });

  it('sums the bytes as sent: the brotli copy where there is one, else the file', () => {
    const [home, page] = measureRoutes(root, budgets);
    expect(home).toMatchObject({ bytes: 140_200, servedBytes: 40_200, over: false });
    // 10,000 + 30,000 + 200 + 6,000 + 4,000 bytes: 50,200, under 51 KiB (52,224).
    expect(page).toMatchObject({ bytes: 172_200, servedBytes: 50_200, over: false });
    expect(measureRoutes(root, [{ ...budgets[1]!, budgetKiB: 49 }])[0]!.over).toBe(true);
  });

  /** `npm run size:web` on a build given as its folder, with these arguments. */
  const sizeCheck = (webRoot: string, ...args: string[]) =>
    spawnSync(
      path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
      ['scripts/bundle-budget.ts', '--dist', webRoot, ...args],
      { cwd: repoRoot, encoding: 'utf8' },
    );

  it("refuses a build that lacks the project's pages, naming the first missing", () => {
    const answer = sizeCheck(root);
    expect(answer.status).toBe(1);
    expect(answer.stderr).toMatch(/Not in the build's manifest: web\/features\/site\/home-page\.tsx/);
  });

  it('passes while every route is within its budget, and fails, naming the route, when one is broken', () => {
    // A build holding the project's own lazy modules, each script 30 KiB with a 10 KiB brotli copy: the browser
    // route loads the entry and its lazy modules, the home page the entry and one.
    const project = path.join(dir.path, 'project');
    fs.mkdirSync(path.join(project, '.vite'), { recursive: true });
    fs.mkdirSync(path.join(project, 'assets'));
    const lazy = [...new Set(routeBudgets.flatMap((b) => b.lazy))];
    const built: Manifest = {
      'index.html': { file: 'assets/index-1.js', isEntry: true, dynamicImports: lazy },
      ...Object.fromEntries(
        lazy.map((key, i) => [key, { file: `assets/lazy-${i}.js`, isDynamicEntry: true }]),
      ),
    };
    fs.writeFileSync(path.join(project, '.vite', 'manifest.json'), JSON.stringify(built));
    for (const { file } of Object.values(built)) {
      fs.writeFileSync(path.join(project, file), Buffer.alloc(30 * 1024, 'a'));
      fs.writeFileSync(path.join(project, `${file}.br`), Buffer.alloc(10 * 1024, 'b'));
    }
    const browserKiB =
      10 * (1 + (routeBudgets.find((b) => b.route === 'database browser')?.lazy.length ?? 0));

    const passing = sizeCheck(project);
    expect(passing.stderr).toBe('');
    expect(passing.status).toBe(0);
    expect(passing.stdout).toContain(
      `ok    database browser: ${browserKiB.toFixed(1)} KiB as sent (brotli) of 250 KiB`,
    );
    expect(passing.stdout).toContain('ok    public home: 20.0 KiB as sent (brotli) of 150 KiB');

    const broken = sizeCheck(project, '--budget', `database browser=${browserKiB - 1}`);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain(`OVER  database browser: ${browserKiB.toFixed(1)} KiB`);
    expect(broken.stdout).toContain('ok    public home');
    expect(broken.stderr).toMatch(/^JavaScript budget broken: database browser\./);

    const wrong = sizeCheck(project, '--budget', 'nowhere=1');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/--budget takes "route=KiB"/);
  });
});
