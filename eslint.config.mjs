import nx from '@nx/eslint-plugin';

// Tags live in each project.json. The contract stands alone; the client and the server see only
// the contract and pure libs; tools may use the contract too.
const productionConstraints = [
  { sourceTag: 'scope:contract', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:client', onlyDependOnLibsWithTags: ['scope:contract', 'type:pure'] },
  { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:contract', 'type:pure'] },
  { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['scope:contract', 'type:pure'] },
  // The console reaches the relay only through the typed client.
  { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:client', 'scope:contract', 'type:pure'] },
  {
    sourceTag: 'scope:tools',
    onlyDependOnLibsWithTags: ['scope:contract', 'scope:client', 'type:pure', 'scope:tools'],
  },
];

// Tests may also drive the server with the simulator and the typed client; production code may not.
const testConstraints = productionConstraints.map((constraint) =>
  constraint.sourceTag === 'scope:server'
    ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'scope:tools', 'scope:client'] }
    : constraint,
);

const moduleBoundaries = (depConstraints) => [
  'error',
  { enforceBuildableLibDependency: false, allow: [], depConstraints },
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/coverage', 'tmp', 'data'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.mts'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(productionConstraints) },
  },
  {
    files: ['**/*.spec.ts', '**/e2e/**', '**/testing/**'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(testConstraints) },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.spec.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
