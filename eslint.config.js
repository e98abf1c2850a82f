// Lint rules, including the import boundaries of docs/architecture.md: a wrong arrow fails lint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/** Builds a no-restricted-imports rule: parent-relative imports are always banned (cross-folder imports go
 * through the #common, #server and #web aliases so the boundaries below can see them), plus `banned`. */
function boundary(banned, message) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['../*', '../**'],
            message: 'Import across folders with #common/…, #server/… or #web/…, not ../',
          },
          ...(banned.length ? [{ group: banned, message }] : []),
        ],
      },
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
      ...boundary([], ''),
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
  {
    files: ['common/**'],
    rules: boundary(['#server/*', '#web/*', 'e2e/*', 'bench/*'], 'common/ imports neither server/ nor web/.'),
  },
  { files: ['web/**'], rules: boundary(['#server/*', 'e2e/*', 'bench/*'], 'web/ imports only common/.') },
  {
    files: ['test/**'],
    rules: boundary(['#web/*'], 'The security and fault suites test the server: no web/.'),
  },
  { files: ['web/ui/**'], rules: boundary(['#server/*', '#web/features/*'], 'web/ui imports no feature.') },
  {
    files: ['server/engines/**'],
    rules: boundary(['#server/*', '!#server/engines/*', '#web/*'], 'server/engines imports only common/.'),
  },
  {
    files: ['server/demo/**'],
    rules: boundary(['#server/*', '!#server/demo/*', '#web/*'], 'server/demo imports only common/.'),
  },
  {
    files: ['server/store/**'],
    rules: boundary(['#server/*', '!#server/store/*', '#web/*'], 'server/store imports only common/.'),
  },
  {
    files: ['server/mail/**', 'server/sms/**', 'server/jobs/**'],
    rules: boundary(['#server/features/*', '#web/*'], 'Delivery and jobs do not import features.'),
  },
  {
    files: ['server/plugins/**'],
    rules: boundary(
      ['#server/features/*', '!#server/features/auth/*', '#web/*'],
      'Plugins are cross-cutting: no feature but the auth primitives (tokens, hashes).',
    ),
  },
  {
    files: ['server/**'],
    ignores: [
      'server/engines/**',
      'server/store/**',
      'server/demo/**',
      'server/mail/**',
      'server/sms/**',
      'server/jobs/**',
      'server/plugins/**',
    ],
    rules: boundary(['#web/*'], 'server/ never imports web/.'),
  },
  prettier,
);
