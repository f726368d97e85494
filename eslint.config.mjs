// Lint: TypeScript-aware, plus the rule that keeps lib/kernel pure — no React,
// Next or Prisma imports, and no ambient time, randomness or ids (they are
// injected through the clock and id ports so runs replay deterministically).
import tseslint from 'typescript-eslint';

const kernelBans = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        { group: ['react', 'react/*', 'react-dom', 'react-dom/*'], message: 'lib/kernel must not import React.' },
        { group: ['next', 'next/*'], message: 'lib/kernel must not import Next.' },
        { group: ['@prisma/*', 'prisma', '**/generated/prisma/**', '@/lib/store/*', '../store/*', '../../store/*'], message: 'lib/kernel must not import Prisma or the store; use the StorePort.' },
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
  { ignores: ['node_modules/**', '.next/**', 'lib/store/generated/**', '.stagecraft/**', 'next-env.d.ts', 'test-results/**', '**/fixtures/**', 'examples/**'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-throw-literal': 'error',
    },
  },
  {
    files: ['lib/kernel/**/*.ts'],
    ignores: ['lib/kernel/**/*.test.ts', 'lib/kernel/testing.ts'],
    rules: kernelBans,
  },
);
