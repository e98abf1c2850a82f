import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { distFolder, startAppServer, type AppServer } from './support/app-server.ts';
import { openSignedIn, signInAdmin } from './support/chinook-roles.ts';

/*
 * The size check's lists against real first visits (scripts/bundle-budget.ts, decision 0056): each budgeted route,
 * opened in a fresh browser (an empty cache), loads exactly the scripts the check counts for it. A script the list
 * left out would escape the budget; one it counts that no visit loads means the list is stale. Each script comes
 * as the brotli copy the check weighs, where the build wrote one.
 */

/** What the e2e journeys need of scripts/bundle-budget.ts (loaded by its URL: e2e/ has no alias to scripts/). */
interface BundleBudget {
  routeBudgets: { route: string; example: string; lazy: string[] }[];
  readManifest(webRoot: string): unknown;
  firstVisitScripts(manifest: unknown, lazy: readonly string[]): string[];
}

let server: AppServer;
let admin: Verification;
let budget: BundleBudget;
const webRoot = path.join(distFolder, 'web');

test.beforeAll(async () => {
  test.setTimeout(180_000);
  budget = (await import(new URL('../scripts/bundle-budget.ts', import.meta.url).href)) as BundleBudget;
  // DATABASES unset: the embedded demo database, whose order_lines the browser's budget names.
  server = await startAppServer('bundle-budget');
  admin = await signInAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
});

/** Records every script the page's context loads: its file (assets/…) and the encoding it came in. */
function scriptsOf(page: Page): Map<string, string | null> {
  const scripts = new Map<string, string | null>();
  page.context().on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.set(new URL(response.url()).pathname.slice(1), response.headers()['content-encoding'] ?? null);
  });
  return scripts;
}

function routeOf(name: string) {
  const route = budget.routeBudgets.find((r) => r.route === name);
  if (!route) throw new Error(`scripts/bundle-budget.ts has no route "${name}"`);
  return route;
}

/** The loaded scripts against the check's list for the route, and each one's encoding against the build's copies. */
function expectCounted(route: string, scripts: Map<string, string | null>): void {
  const counted = budget.firstVisitScripts(budget.readManifest(webRoot), routeOf(route).lazy);
  expect([...scripts.keys()].sort(), `the scripts a first visit of the ${route} loads`).toEqual(counted);
  for (const [file, encoding] of scripts)
    expect(encoding, file).toBe(fs.existsSync(path.join(webRoot, `${file}.br`)) ? 'br' : null);
}

test('a first visit of the public home loads the scripts the size check counts, as brotli', async ({
  page,
}) => {
  const scripts = scriptsOf(page);
  await page.goto(server.origin + routeOf('public home').example);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expectCounted('public home', scripts);
});

test('a first visit of the database browser loads the scripts the size check counts, as brotli', async ({
  page,
}) => {
  const scripts = scriptsOf(page);
  await openSignedIn(page, server, admin, routeOf('database browser').example);
  await expect(page.getByRole('grid', { name: 'Rows' }).locator('tbody tr[data-row]').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expectCounted('database browser', scripts);
});
