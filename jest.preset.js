// Shared jest settings: TypeScript through swc (fast, no type-check — `typecheck` does that),
// and the tsconfig.base.json path aliases mapped so tests import libs by package name.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([name, [target]]) => [
    `^${name.replace(/[/\\^$.*+?()[\]{}|-]/g, '\\$&')}$`,
    path.join(__dirname, target),
  ]),
);

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['**/*.spec.ts'],
  moduleNameMapper,
};
