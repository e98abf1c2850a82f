import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The import boundaries of eslint.config.js (decision 0049) with ESLint's own API: probe files, never written to
 * disk, each breaking one rule from where it applies, must fail lint with that rule's sentence; the arrows the map
 * allows must not. Until issue 33 the rules were empty (a leading # in a gitignore pattern is a comment) and every
 * probe below linted clean.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The import-boundary errors lint reports for `code` as the file at `filePath` (relative to the root). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

/** The three ways to import: a declaration, a re-export and import(). */
const importsOf = (specifier: string) => ({
  declaration: `import '${specifier}';\n`,
  reExport: `export * from '${specifier}';\n`,
  dynamic: `export const load = () => import('${specifier}');\n`,
});

const serverFolders = fs
  .readdirSync(new URL('../server/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['features', 'test', 'cli'].includes(entry.name))
  .map((entry) => entry.name);
/** The lowest folders: their code imports only common/ (their tests also the folders beside them). */
const onlyCommonFolders = ['crypto', 'demo', 'engines', 'store'];

describe('import rules that fail lint', () => {
  const broken: [file: string, specifier: string, sentence: string][] = [
    ['web/probe.ts', '../server/app.ts', 'not ../'],
    ['server/features/sql/probe.ts', '../../../common/limits.ts', 'not ../'],
    ['common/probe.ts', '#server/app.ts', 'common/ imports neither server/ nor web/'],
    ['common/content/probe.ts', '#web/main.tsx', 'common/ imports neither server/ nor web/'],
    ['web/probe.ts', '#server/app.ts', 'web/ imports only common/'],
    ['web/features/admin/probe.tsx', '#server/features/admin/routes.ts', 'web/ imports only common/'],
    ['web/ui/probe.tsx', '#web/features/site/site-chrome.ts', 'web/ui imports no feature'],
    ['web/ui/probe.tsx', '#server/config.ts', 'web/ imports only common/'],
    [
      'web/features/chat/probe.tsx',
      '#web/features/browser/grid/grid-keys.ts',
      'web/features/chat imports another feature only through its public files',
    ],
    [
      'web/features/site/probe.tsx',
      '#web/features/consent/consent-storage.ts',
      'web/features/site imports another feature only through its public files',
    ],
    [
      'web/features/admin/audit/probe.test.tsx',
      '#web/features/browser/database-select.tsx.bak',
      'web/features/admin imports another feature only through its public files',
    ],
    [
      'test/security/probe.test.ts',
      '#web/api/client.ts',
      'The security and fault suites test the server: no web/',
    ],
    ['server/features/sql/probe.ts', '#web/api/client.ts', 'server/ never imports web/'],
    // sql/ and admin/ meet only in the audit feature; exports/ borrows nothing of sql/ (issue 33 item 3).
    [
      'server/features/sql/probe.ts',
      '#server/features/admin/roles-service.ts',
      'server/features/sql uses another feature only where serverFeatureUses',
    ],
    [
      'server/features/admin/probe.ts',
      '#server/features/sql/sql-context.ts',
      'server/features/admin uses another feature only where serverFeatureUses',
    ],
    [
      'server/features/exports/probe.ts',
      '#server/features/sql/page-cursor.ts',
      'server/features/exports uses another feature only where serverFeatureUses',
    ],
    ['server/probe.ts', '#web/routes.tsx', 'server/ never imports web/'],
    ['server/cli/probe.ts', '#web/api/client.ts', 'server/ never imports web/'],
    // The one real violation before issue 33: the session plugin read the access cache from a feature.
    [
      'server/plugins/session.ts',
      '#server/features/access/access-cache.ts',
      'server/plugins sits below the features and imports none',
    ],
    ['server/engines/probe.ts', '#server/store/app-store.ts', 'server/engines imports only common/'],
    ['server/engines/postgres/probe.ts', '#server/test/temp-dir.ts', 'server/engines imports only common/'],
    ['server/store/probe.ts', '#server/plugins/error-envelope.ts', 'server/store imports only common/'],
    ['server/demo/probe.ts', '#server/engines/engine.ts', 'server/demo imports only common/'],
    ['server/crypto/probe.ts', '#server/config.ts', 'server/crypto imports only common/'],
    ...serverFolders.flatMap((folder): [string, string, string][] => {
      const below = `server/${folder} sits below the features`;
      const code = onlyCommonFolders.includes(folder) ? `server/${folder} imports only common/` : below;
      return [
        [`server/${folder}/probe.ts`, '#server/features/sql/sql-service.ts', code],
        [`server/${folder}/probe.test.ts`, '#server/features/setup/service.ts', below],
      ];
    }),
  ];

  for (const [file, specifier, sentence] of broken) {
    for (const [way, code] of Object.entries(importsOf(specifier))) {
      it(`${file} → ${specifier} (${way})`, async () => {
        expect(await boundaryErrors(file, code)).toEqual([expect.stringContaining(sentence)]);
      });
    }
  }

  it('a type-only import is refused too', async () => {
    expect(
      await boundaryErrors('web/probe.ts', "import type { AppConfig } from '#server/config.ts';\n"),
    ).toEqual([expect.stringContaining('web/ imports only common/')]);
  });

  it('covers every server folder below the features', () => {
    expect(serverFolders).toEqual(
      expect.arrayContaining(['access', 'crypto', 'engines', 'jobs', 'plugins', 'store']),
    );
  });
});

describe('imports the map allows', () => {
  const allowed: [file: string, specifier: string][] = [
    ['web/probe.ts', '#common/limits.ts'],
    ['web/features/site/probe.tsx', '#web/features/browser/database-select.tsx'],
    ['web/features/site/probe.tsx', '#web/features/site/site-chrome.ts'],
    ['web/features/admin/home/probe.tsx', '#web/features/browser/grid/data-grid.tsx'],
    ['web/features/password/probe.tsx', '#web/features/account/reauth/use-reauth.ts'],
    ['web/ui/probe.tsx', '#web/ui/theme.ts'],
    ['server/plugins/probe.ts', '#server/access/access-cache.ts'],
    ['server/plugins/probe.ts', '#server/crypto/tokens.ts'],
    ['server/access/probe.ts', '#server/store/roles.ts'],
    ['server/engines/probe.ts', '#server/engines/engine.ts'],
    ['server/engines/probe.test.ts', '#server/test/server-databases.ts'],
    ['server/engines/postgres/probe.test.ts', '#server/jobs/export-formats.ts'],
    ['server/app.ts', '#server/features/sql/routes.ts'],
    // The command line runs the features' services as main.ts does (decision 0057).
    ['server/cli/probe.ts', '#server/features/admin/user-actions-service.ts'],
    ['server/test/probe.ts', '#server/features/admin/roles-service.ts'],
    ['server/features/sql/probe.ts', '#server/access/table-access.ts'],
    ['server/features/sql/probe.ts', '#server/features/audit/row-audit.ts'],
    ['server/features/admin/probe.ts', '#server/features/audit/undo-service.ts'],
    ['test/security/probe.test.ts', '#server/app.ts'],
    // The one folder that may import both: scripts/contract-routes.test.ts checks web/test's route table on the app.
    ['scripts/probe.test.ts', '#server/test/test-app.ts'],
    ['scripts/probe.test.ts', '#web/test/contract-routes.ts'],
  ];

  for (const [file, specifier] of allowed) {
    it(`${file} → ${specifier}`, async () => {
      for (const code of Object.values(importsOf(specifier)))
        expect(await boundaryErrors(file, code)).toEqual([]);
    });
  }
});
