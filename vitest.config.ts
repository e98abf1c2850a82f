import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The Node test files, and those of them a database server must answer (PostgreSQL, MariaDB, Redis or SQL Server),
// which say so in their name (docs/decisions/0052-the-fast-test-loop.md).
const nodeTests = ['server/**/*.test.ts', 'common/**/*.test.ts', 'scripts/**/*.test.ts'];
const databaseTests = ['server/**/*.db.test.ts', 'common/**/*.db.test.ts', 'scripts/**/*.db.test.ts'];

// Projects: the unit tests of the server and common code in Node ("server") and of the web app in jsdom ("web"),
// npm run test:unit; the tests on real database servers ("integration"), npm run test:integration; the attack,
// fault and scale suites, npm run test:attack. `vitest run` (npm test) runs them all.
export default defineConfig({
  plugins: [react()],
  test: {
    // Both cores: Vitest's default leaves one free (one worker on this machine and CI's), which ran the files one
    // at a time, 12 min where two workers take 8.
    maxWorkers: 2,
    // Limits are how long a failing step waits before it is reported, never a budget a passing test must meet: the
    // suite must pass beside a CPU hog on two cores (issue 32), where a page that renders in 1 s takes 10. Tests wait
    // for states (findBy, expect.poll, events), and these ceilings only end a wait that would never end.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    expect: { poll: { timeout: 60_000, interval: 50 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: nodeTests,
          isolate: false,
          setupFiles: ['server/test/unit-setup.ts'],
          exclude: [...configDefaults.exclude, '**/*.db.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: databaseTests,
        },
      },
      {
        // Attacks on the running API (test/security) and faults of the databases and of DBUI itself (test/faults),
        // on real engines; projects of their own so each can be run alone (vitest run --project security).
        extends: true,
        test: {
          name: 'security',
          environment: 'node',
          include: ['test/security/**/*.test.ts'],
          testTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'faults',
          environment: 'node',
          include: ['test/faults/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
      {
        // Two DBUI instances over real HTTP on PostgreSQL, Redis and one export folder (issue 18, README "Running at
        // scale"): vitest run --project scale.
        extends: true,
        test: {
          name: 'scale',
          environment: 'node',
          include: ['test/scale/**/*.test.ts'],
          testTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          isolate: false,
          include: ['web/**/*.test.{ts,tsx}'],
          setupFiles: ['web/test/setup.ts'],
        },
      },
    ],
  },
});
