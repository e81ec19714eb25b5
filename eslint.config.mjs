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
  // The browser suite drives the built relay and the simulator from outside, as an operator would.
  { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:client', 'scope:contract', 'scope:tools', 'type:pure'] },
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

// Layers inside apps/server/src, for production files (tests may reach anywhere). The order, top
// to bottom: routes → dialects → pipeline → channels / billing / policy / auth → storage → core;
// config.ts and logger.ts are leaves every layer may import. An import may only point down: a
// rule names, for each folder, the folders above it. ESLint's own no-restricted-imports matches
// the specifier as written, so a folder is matched as a path segment of a relative import.
const SERVER_SRC = 'apps/server/src';
const TEST_CODE = ['**/*.spec.ts', '**/*.suite.ts', '**/*-fixture.ts', '**/e2e/**', '**/testing/**', '**/test/**', '**/suites/**'];
const intoFolders = (folders, message) => ({ regex: `(^|/)(${folders.join('|')})(/|$)`, message });
const productionNeverImportsTests = [
  intoFolders(['e2e', 'testing', 'test', 'suites', 'fuzz', '__mocks__'], 'Production code never imports test code: harnesses live with the tests.'),
  { regex: '\\.(spec|suite)$|-fixture$', message: 'Production code never imports a spec, a suite or a fixture.' },
  {
    group: ['@chat-relay/upstream-sim', '@chat-relay/fuzz', '@chat-relay/contract/testing', 'supertest', 'fast-check', '@jest/*'],
    message: 'Production code never imports test tooling.',
  },
];
const onlyMainImportsApp = { regex: '(^|/)(app|main)$', message: 'Only main.ts imports app.ts; nothing imports main.ts.' };
const routesAreTheTop = intoFolders(['routes'], 'Nothing imports routes/ but app.ts: a route is the top of its request, what it shares belongs below it.');
const above = (folder, folders) =>
  intoFolders(folders, `${folder} sits below ${folders.join(', ')}: an import may only point down (issue 27's layers); pass what it needs in, or move the shared piece down.`);
const layerRule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns: [...productionNeverImportsTests, ...patterns] }] });
const layer = (folders, patterns) => ({
  files: folders.map((folder) => (folder.endsWith('.ts') ? `${SERVER_SRC}/${folder}` : `${SERVER_SRC}/${folder}/**/*.ts`)),
  ignores: TEST_CODE,
  rules: layerRule(patterns),
});
// Every folder the layers name, and today's folders that sit above storage and core.
const FEATURE_FOLDERS = ['routes', 'dialects', 'pipeline', 'channels', 'catalogue', 'billing', 'policy', 'auth', 'storage', 'middleware', 'metrics', 'search', 'tasks', 'cluster', 'services'];
const serverLayers = [
  // The last block that matches a file sets its rule, so the general one comes first.
  layer(['**'], [routesAreTheTop, onlyMainImportsApp]),
  layer(['routes'], [onlyMainImportsApp]),
  layer(['app.ts'], [{ regex: '(^|/)main$', message: 'Nothing imports main.ts.' }]),
  layer(['main.ts'], []),
  layer(['dialects'], [routesAreTheTop, onlyMainImportsApp, above('dialects/', ['routes'])]),
  layer(['pipeline'], [routesAreTheTop, onlyMainImportsApp, above('pipeline/', ['routes', 'dialects'])]),
  ...['channels', 'catalogue', 'billing', 'policy', 'auth'].map((folder) =>
    layer([folder], [routesAreTheTop, onlyMainImportsApp, above(`${folder}/`, ['routes', 'dialects', 'pipeline'])]),
  ),
  layer(['storage'], [
    routesAreTheTop,
    onlyMainImportsApp,
    above('storage/', ['routes', 'dialects', 'pipeline', 'channels', 'catalogue', 'billing', 'policy', 'auth', 'middleware', 'metrics', 'search', 'tasks', 'cluster', 'services']),
  ]),
  // config.ts reads every setting and imports only core/ (and validation/'s tool limits): a leaf like them.
  layer(['core', 'logger.ts', 'config.ts'], [routesAreTheTop, onlyMainImportsApp, above('core/ (and logger.ts, config.ts)', FEATURE_FOLDERS)]),
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
    files: ['**/*.spec.ts', '**/e2e/**', '**/testing/**', '**/test/**'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(testConstraints) },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...serverLayers,
  {
    files: ['**/*.spec.ts', '**/*.spec.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
