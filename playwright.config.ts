import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './e2e/chromium-executable.ts';
import { freePort } from './e2e/support/free-port.ts';
import { journeySiteLinksEnv } from './e2e/support/site-links.ts';

// Browser tests run against the built app served by the real server (npm run build first), with a fresh data
// folder each run. Playwright never downloads a browser: e2e/chromium-executable.ts picks the machine's Chromium or
// the one inside the @sparticuz/chromium package.
// This file is loaded by the runner and again by each worker process; values chosen here are kept in process.env,
// which the workers inherit, so they all see the runner's choice (the same port, not one each).
process.env.DBUI_E2E_PORT ??= String(await freePort());
process.env.CHROMIUM_PATH ??= await chromiumExecutable();
const PORT = Number(process.env.DBUI_E2E_PORT);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const DATA_DIR = 'test-results/e2e-data';
// The built app to serve: a private copy of dist/ while several people build at once (see e2e/support/app-server.ts).
const DIST = process.env.DBUI_DIST ?? 'dist';

export default defineConfig({
  testDir: 'e2e',
  // Spec files run side by side (each journey file starts a server of its own, e2e/support/app-server.ts); the
  // tests inside a file run in order, as the steps of one journey. Two workers: this machine and CI have two cores.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: 'list',
  forbidOnly: Boolean(process.env.CI),
  // Generous limits, three times what the journeys first had: the same journeys took 7.5 min on 2026-11-24 and
  // 23 min on a slower day of this machine (two cores, Chromium's software rendering taking most of them), where
  // pages took over 10 s to show and screenshots over 30 s. A limit only decides how long a failing step waits
  // before it is reported.
  timeout: 90_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL: BASE_URL,
    headless: true,
    // A trace records every step with DOM snapshots and a screencast, kept only when the step fails: worth it on a
    // developer's machine, where a failure is read from it; in CI nobody opens it, and recording cost every journey
    // (decision 0054).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1366, height: 900 } } }],
  webServer: {
    // Playwright empties test-results/ before it starts this, so the data folder is always new.
    command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && node ${DIST}/server/main.js`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'Admin#12345',
      ADMIN_EMAIL: 'admin@example.com',
      // The footer's and home page's outside links and Titan's support address (the shell journey checks them).
      ...journeySiteLinksEnv,
    },
  },
});
