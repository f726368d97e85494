// Lint: TypeScript-aware, plus the rules that keep the layers apart:
// - lib/kernel is pure — no React, Next or Prisma, no other lib/* folder, and no
//   ambient time, randomness or ids (injected through the clock and id ports so
//   runs replay deterministically);
// - browser code (components/**) imports no Node module, no store, no server and
//   nothing of the kernel at run time (types are fine): it talks to the HTTP API;
// - route handlers (app/api/**) import no Prisma and no store: they call lib/server.
// On top: typescript-eslint's recommended rules everywhere, and for the React code
// the hooks rules (eslint-plugin-react-hooks: no writes during render, effects
// with their dependencies) and Next's own (@next/eslint-plugin-next).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import nextPlugin from '@next/eslint-plugin-next';

const kernelBans = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        { group: ['react', 'react/*', 'react-dom', 'react-dom/*'], message: 'lib/kernel must not import React.' },
        { group: ['next', 'next/*'], message: 'lib/kernel must not import Next.' },
        { group: ['@prisma/*', 'prisma', '**/generated/prisma/**', '@/lib/store/*', '../store/*', '../../store/*'], message: 'lib/kernel must not import Prisma or the store; use the StorePort.' },
        {
          group: ['@/lib/*', '!@/lib/kernel', '!@/lib/kernel/**', '../skill/*', '../server/*', '../models/*', '../sandbox/*', '../views/*', '../client/*', '../../skill/*', '../../server/*', '../../models/*', '../../sandbox/*'],
          message: 'lib/kernel imports no other lib/* folder: the others depend on the kernel, not the other way round.',
        },
      ],
      paths: [{ name: 'node:crypto', importNames: ['randomUUID', 'randomBytes', 'randomInt'], message: 'Use the IdSource port, not ambient randomness.' }],
    },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Use the Clock port (deps.clock.now()).' },
    { object: 'Math', property: 'random', message: 'Use the IdSource port; the kernel is deterministic.' },
    { object: 'crypto', property: 'randomUUID', message: 'Use the IdSource port (deps.ids.newId()).' },
    { object: 'performance', property: 'now', message: 'Use the Clock port.' },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the Clock port, not new Date().' },
    { selector: "CallExpression[callee.name='randomUUID']", message: 'Use the IdSource port.' },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'dist/**', '.bench-build/**', '.test-build/**', '.bench-peers/**', 'lib/store/generated/**', '.stagecraft/**', 'next-env.d.ts', 'test-results/**', '**/fixtures/**', 'examples/**'] },
  ...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts', '**/*.tsx', '**/*.mts'] })),
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-throw-literal': 'error',
    },
  },
  {
    // tests read raw answers and records as they come
    files: ['**/*.test.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // the React code: components, pages, the browser's client
    files: ['components/**/*.ts', 'components/**/*.tsx', 'app/**/*.ts', 'app/**/*.tsx', 'lib/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
    },
    settings: { next: { rootDir: '.' } },
  },
  {
    // server components render once per request (every page is force-dynamic): the clock they
    // read is the request's time, handed down as a prop, never read again in the browser
    files: ['app/**/page.tsx'],
    rules: { 'react-hooks/purity': 'off' },
  },
  {
    files: ['lib/kernel/**/*.ts'],
    ignores: ['lib/kernel/**/*.test.ts', 'lib/kernel/testing.ts'],
    rules: kernelBans,
  },
  {
    // browser code
    files: ['components/**/*.ts', 'components/**/*.tsx'],
    ignores: ['components/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'child_process', 'crypto', 'os'], message: 'Browser code cannot use Node modules.' },
            { group: ['@/lib/server', '@/lib/server/*', '**/lib/server/*', '@/lib/store', '@/lib/store/*', '**/lib/store', '**/lib/store/*', '@prisma/*', '**/generated/prisma/**'], message: 'Browser code reaches the server through the HTTP API (lib/client/api.ts: callRoute, routeQuery), never its modules.' },
            // …but for the kernel's words for a count (plural.ts: no imports, nothing of Node), which the
            // studio says as the kernel and the CLI do; terminal-text.ts (no imports), which makes
            // printed output readable on the run page as `stagecraft events` shows it; and turn-usage.ts
            // (no imports), for tokens a model endpoint did not report
            {
              group: ['@/lib/kernel/*', '**/lib/kernel/*', '!@/lib/kernel/plural', '!@/lib/kernel/cut-text', '!@/lib/kernel/terminal-text', '!@/lib/kernel/turn-usage'],
              allowTypeImports: true,
              message: 'Browser code imports kernel types only (import type …), and plural.ts, cut-text.ts, terminal-text.ts and turn-usage.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // route handlers: parse, call lib/server, map errors
    files: ['app/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@prisma/*', 'prisma', '**/generated/prisma/**', '@/lib/store', '@/lib/store/*', '**/lib/store', '**/lib/store/*'], message: 'Route handlers call lib/server; they never touch Prisma or the store.' }] },
      ],
    },
  },
);
