import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/coverage', 'tmp', 'data'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    rules: {
      // Tags live in each project.json. The contract stands alone; the client and the server
      // see only the contract and pure libs; tools may use the contract too.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:contract', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:client', onlyDependOnLibsWithTags: ['scope:contract', 'type:pure'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:contract', 'type:pure'] },
            { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['scope:contract', 'type:pure'] },
            {
              sourceTag: 'scope:tools',
              onlyDependOnLibsWithTags: ['scope:contract', 'scope:client', 'type:pure', 'scope:tools'],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
