// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
          paths: [
            {
              name: 'react-toastify',
              message:
                "Import from 'react-toastify/unstyled': the default entry injects an inline <style> that the CSP blocks.",
            },
          ],
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
            {
              name: 'react-toastify',
              message:
                "Import from 'react-toastify/unstyled': the default entry injects an inline <style> that the CSP blocks.",
            },
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
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['scripts/**', 'bench/**', 'apps/server/build.mjs', 'apps/server/src/main.ts', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
  prettier,
);
