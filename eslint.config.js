// Lint rules, including the import boundaries of docs/architecture.md: a wrong arrow fails lint
// (scripts/import-rules.test.ts lints a probe import breaking each boundary and expects the error).
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/*
 * The import boundaries (decision 0049). Each ban is a regular expression over the import's specifier: the
 * `regex` of no-restricted-imports for imports and re-exports, and no-restricted-syntax for import(). Not the
 * gitignore-style `group`: there a leading # starts a comment, so '#server/*' matched nothing. ESLint keeps only
 * the options of the last block that sets a rule for a file, so every block lists all the bans of its files.
 * e2e/, bench/ and test/ have no alias, so with ../ banned no other folder can reach them.
 */

/** A banned import: a regular expression over its specifier, and the sentence lint shows. */
const ban = (regex, message) => ({ regex, message });
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const parentPath = ban(
  '(^|/)\\.\\.(/|$)',
  'Import across folders with #common/…, #server/… or #web/…, not ../',
);
const commonBan = ban('^#(server|web)/', 'common/ imports neither server/ nor web/.');
const webBan = ban('^#server/', 'web/ imports only common/.');
const serverBan = ban('^#web/', 'server/ never imports web/.');
const testSuitesBan = ban('^#web/', 'The security and fault suites test the server: no web/.');
const uiBan = ban('^#web/features/', 'web/ui imports no feature.');

/** The folders of `dir` (web/features, server), read when lint starts, so a new folder gets its rules at once. */
const foldersOf = (dir) =>
  fs
    .readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/*
 * A web feature imports another only through that feature's public files, listed here (paths inside
 * web/features/{feature}/); every other file of a feature is its own. A list rather than a public.ts re-exporting
 * them: a barrel would put the whole list in every chunk that needs one piece (the home page's budget, decision
 * 0033). To share another file, add it here in the same change.
 */
const webFeaturePublicFiles = {
  account: ['reauth/reauth-provider.tsx', 'reauth/use-reauth.ts'],
  browser: ['database-select.tsx', 'grid/data-grid.tsx'],
  chat: ['chat-widget.tsx'],
  consent: ['consent-banner.tsx', 'consent-store.ts', 'consent-texts.ts', 'use-page-views.ts'],
  site: ['site-chrome.ts', 'site-footer.tsx', 'site-header.tsx'],
};
const publicFilePatterns = Object.entries(webFeaturePublicFiles).flatMap(([feature, files]) =>
  files.map((file) => `${escapeRegex(`${feature}/${file}`)}$`),
);
const otherWebFeatureBan = (feature) =>
  ban(
    `^#web/features/(?!${[`${escapeRegex(feature)}/`, ...publicFilePatterns].join('|')})`,
    `web/features/${feature} imports another feature only through its public files (webFeaturePublicFiles in ` +
      'eslint.config.js).',
  );

/*
 * server/: app.ts and main.ts wire the features, server/cli (the `dbui` command line, decision 0057) runs them as
 * main.ts does, and server/test (the test helpers) builds apps from them; every other folder (plugins, access,
 * crypto, store, engines, jobs, mail, sms, demo …) sits below the features and imports none. The lowest folders
 * import only common/ and themselves; their tests may also use the folders beside them as references and
 * server/test's helpers, never a feature.
 */
const serverFolders = foldersOf('./server/').filter(
  (folder) => !['features', 'test', 'cli'].includes(folder),
);
const featureBan = (folder) =>
  ban(
    '^#server/features/',
    `server/${folder} sits below the features and imports none (app.ts and main.ts wire them).`,
  );
const onlyCommonFolders = ['crypto', 'demo', 'engines', 'store'];
const onlyCommonBan = (folder) =>
  ban(`^#server/(?!${folder}/)`, `server/${folder} imports only common/ (and its own files).`);

/*
 * A server feature uses another only where listed here (issue 33): the audit is the one change path of sql/ and
 * admin/, which never lean on each other; account/ counts its failures in metrics/ and asks captcha/; admin/ shows
 * account/'s sessions and health/'s report; setup/ makes the first account. Any other arrow is a new decision.
 */
const serverFeatureUses = {
  account: ['captcha', 'metrics'],
  admin: ['account', 'audit', 'health'],
  setup: ['account'],
  sql: ['audit'],
  bulk: ['audit'],
  imports: ['audit', 'bulk'],
};
const otherServerFeatureBan = (feature) =>
  ban(
    `^#server/features/(?!${[feature, ...(serverFeatureUses[feature] ?? [])].map((f) => `${escapeRegex(f)}/`).join('|')})`,
    `server/features/${feature} uses another feature only where serverFeatureUses in eslint.config.js lists it.`,
  );

/** The rules of one block: ../ always banned, plus `bans`. */
function boundary(...bans) {
  const all = [parentPath, ...bans];
  return {
    'no-restricted-imports': ['error', { patterns: all.map(({ regex, message }) => ({ regex, message })) }],
    'no-restricted-syntax': [
      'error',
      ...all.map(({ regex, message }) => ({
        // esquery ends a /regex/ at its first slash, so the slashes inside are escaped.
        selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`,
        message,
      })),
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', 'lab/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      ...boundary(),
    },
  },
  {
    // Tests and benchmarks may assert presence with `!` where a missing value is a bug in the test itself.
    files: ['**/*.test.{ts,tsx}', 'test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { files: ['common/**'], rules: boundary(commonBan) },
  { files: ['web/**'], rules: boundary(webBan) },
  { files: ['web/ui/**'], rules: boundary(webBan, uiBan) },
  ...foldersOf('./web/features/').map((feature) => ({
    files: [`web/features/${feature}/**`],
    rules: boundary(webBan, otherWebFeatureBan(feature)),
  })),
  { files: ['test/**'], rules: boundary(testSuitesBan) },
  { files: ['server/**'], rules: boundary(serverBan) },
  ...serverFolders.map((folder) => ({
    files: [`server/${folder}/**`],
    rules: onlyCommonFolders.includes(folder)
      ? boundary(serverBan, onlyCommonBan(folder))
      : boundary(serverBan, featureBan(folder)),
  })),
  ...foldersOf('./server/features/').map((feature) => ({
    files: [`server/features/${feature}/**`],
    rules: boundary(serverBan, otherServerFeatureBan(feature)),
  })),
  ...onlyCommonFolders.map((folder) => ({
    files: [`server/${folder}/**/*.test.ts`],
    rules: boundary(serverBan, featureBan(folder)),
  })),
  prettier,
);
