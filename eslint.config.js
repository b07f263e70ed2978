// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** react-toastify's default entry injects an inline <style>, which the CSP blocks. */
const UNSTYLED_TOASTS = {
  name: 'react-toastify',
  message: "Import from 'react-toastify/unstyled': the default entry injects an inline <style> that the CSP blocks.",
};

/** The audit log has one writer (docs/ARCHITECTURE.md#where-modules-meet-domain-events). */
const NO_RECORDER = {
  selector: "MemberExpression[property.name='recorder']",
  message: "Emit the audited event (events.emit('<action>', change)); the audit module records it.",
};

/** Routes come from the endpoint table (plugins/route.ts). */
const ROUTES_FROM_TABLE = [
  "CallExpression[callee.property.name='withTypeProvider']",
  "CallExpression[callee.property.name='route'][arguments.0.type='ObjectExpression']",
  'CallExpression[callee.property.name=/^(get|post|put|patch|delete|head|options|all)$/][arguments.0.value=/^\\//]',
  'CallExpression[callee.property.name=/^(get|post|put|patch|delete|head|options|all)$/][arguments.0.quasis.0.value.raw=/^\\//]',
].map((selector) => ({
  selector,
  message: 'Register routes with route(app, ENDPOINTS.…, { … }) from plugins/route.ts (the endpoint table).',
}));

/** No Kysely values outside repositories and migrations (docs/ARCHITECTURE.md#server-layers). */
const KYSELY_MESSAGE = 'Queries live in the module’s *.repository.ts (or a migration); import only types here.';
const NO_KYSELY = {
  paths: [{ name: 'kysely', allowTypeImports: true, message: KYSELY_MESSAGE }],
  patterns: [{ group: ['kysely/*'], allowTypeImports: true, message: KYSELY_MESSAGE }],
};

/**
 * Another module's files, from a file `depth` folders below `modules/` (its face `../<module>` is fine).
 * @param {number} depth
 */
const otherModuleFiles = (depth) => ({
  regex: `^${'\\.\\./'.repeat(depth)}[^./][^/]*/.+`,
  message: `Import another module through its face ('${'../'.repeat(depth)}<module>'), not its files.`,
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [UNSTYLED_TOASTS],
        },
      ],
    },
  },
  {
    // Features never import each other (src/features/<f>/<dir>/file -> ../../<other>); the app layer composes them.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            UNSTYLED_TOASTS,
            {
              name: 'react-toastify/unstyled',
              importNames: ['toast'],
              message:
                'Show toasts with showToast from lib/toast: at most three on screen, a repeated text counted on one.',
            },
          ],
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!\\.\\./)',
              message: 'Import shared code from lib/ or components/, not from another feature.',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles anywhere in the apps and packages.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      'import/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] } },
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Server layers: plugins, lib, adapters, db, auth (actor, policies), jobs and events never import a module; modules
    // compose them (docs/ARCHITECTURE.md). Tests may start the whole app.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { import: importPlugin },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: ['plugins', 'lib', 'adapters', 'db', 'auth', 'jobs', 'events'].map((layer) => ({
            target: `./apps/server/src/${layer}`,
            from: './apps/server/src/modules',
            message: `${layer}/ is below the modules: pass what it needs in, or move the shared code down.`,
          })),
        },
      ],
    },
  },
  {
    // The audit log has one rule: modules emit audited events, modules/audit/audit.subscriptions.ts records each one
    // (docs/ARCHITECTURE.md#where-modules-meet-domain-events). Nothing outside the audit module reaches its recorder.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/modules/audit/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)audit/audit-recorder$',
              message: "Emit the audited event (events.emit('<action>', change)); the audit module records it.",
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', NO_RECORDER],
    },
  },
  {
    // No Kysely outside repositories and migrations: services, routes, jobs and adapters reach the database through a
    // module's *.repository.ts, so every SQL statement has one home. `import type` stays allowed (a `Kysely`, a
    // `Selectable` or a `RawBuilder` passed along is not a query). A service that writes `db.selectFrom(…)` without
    // importing kysely is caught in review, not here: the rule sees imports only.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      '**/*.repository.ts',
      // The connection, the migrations (frozen SQL) and the table types.
      'apps/server/src/db/**',
      // SQL fragments that repositories splice into their queries: which rows a user can read and which content
      // types a file kind covers.
      'apps/server/src/auth/access-facts.ts',
      'apps/server/src/lib/file-kind-sql.ts',
      // A store of its own below the modules: one atomic upsert per hit is the limiter (table `rate_limits`).
      'apps/server/src/lib/rate-limiter.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: NO_KYSELY.paths, patterns: NO_KYSELY.patterns }],
    },
  },
  {
    // Routes are registered from the endpoint table through `route()` (plugins/route.ts), which takes their method,
    // path and schemas from the table entry: a module declares no route of its own. Not here: the development
    // identity provider (pages and a catch-all, never an API) and the tus protocol (every tus method on one hidden
    // path, answered by the tus server), and the WebDAV protocol routes (`modules/dav/dav.routes.ts`: every DAV
    // method on the tree's two mounts, access 'dav'). One `no-restricted-syntax` list per file set (flat config replaces a rule's
    // options, it does not merge them), so the recorder rule above is repeated here.
    files: ['apps/server/src/modules/**/*.ts'],
    // Also not here: the Nextcloud client protocol (`/status.php`, `/ocs/…`, Login Flow v2's `/index.php/login/v2…`:
    // Nextcloud's own paths and shapes).
    ignores: [
      '**/*.test.ts',
      'apps/server/src/modules/dev-idp/**',
      'apps/server/src/modules/files/tus/**',
      'apps/server/src/modules/nextcloud/discovery.routes.ts',
      'apps/server/src/modules/nextcloud/login-flow.routes.ts',
      'apps/server/src/modules/dav/dav.routes.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', NO_RECORDER, ...ROUTES_FROM_TABLE] },
  },
  {
    files: ['apps/server/src/modules/audit/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ROUTES_FROM_TABLE] },
  },
  {
    // A module uses another module only through its face (`modules/<m>/index.ts`) or contracts, never its internals
    // (docs/ARCHITECTURE.md#server-layers). One options object per file set (flat config replaces a rule's options):
    // outside repositories the Kysely rule above comes along.
    files: ['apps/server/src/modules/*/*.ts'],
    ignores: ['**/*.test.ts', '**/*.repository.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: NO_KYSELY.paths, patterns: [...NO_KYSELY.patterns, otherModuleFiles(1)] },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/*/*.repository.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [otherModuleFiles(1)] }] },
  },
  {
    files: ['apps/server/src/modules/*/*/*.ts'],
    ignores: ['**/*.test.ts', '**/*.repository.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: NO_KYSELY.paths, patterns: [...NO_KYSELY.patterns, otherModuleFiles(2)] },
      ],
    },
  },
  {
    // Rooms that say what they hold: no server source file over 400 lines (docs/ARCHITECTURE.md#server-layers).
    // Frozen migrations aside; tests are not held to it.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/db/migrations/**'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // Web layers: shared (components, lib) → features → app. Shared code never imports a feature or the app;
    // a feature never imports the app (features not importing each other is the rule below).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { import: importPlugin },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/components', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/lib', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/features', from: './apps/web/src/app' },
          ],
        },
      ],
    },
  },
  {
    // Features talk HTTP through lib/ (api-client.ts, http.ts: one error parser), never with fetch or XHR.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Use lib/api-client.ts or lib/http.ts (send, sendOk, postWithProgress).' },
        { name: 'XMLHttpRequest', message: 'Use lib/http.ts postWithProgress.' },
      ],
    },
  },
  {
    // A promise nobody awaits loses its error (an unhandled rejection ends the server) and its order: in the server
    // and the web app every promise is awaited, returned, or handed to `void` on purpose. Type-aware (slower), so
    // only over the two apps' code.
    files: ['apps/server/src/**/*.ts', 'apps/server/test/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['scripts/**', 'bench/**', 'apps/server/build.mjs', 'apps/server/src/main.ts', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
  prettier,
);
