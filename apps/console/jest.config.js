// The console's logic and components, in jsdom; TSX through swc like the rest of the workspace.
module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'console',
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022', transform: { react: { runtime: 'automatic' } } },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['tsx', 'ts', 'js', 'json'],
  testMatch: ['**/*.spec.ts', '**/*.spec.tsx'],
  setupFiles: ['<rootDir>/src/testing/setup.ts'],
};
