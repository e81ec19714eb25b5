module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'server',
  rootDir: __dirname,
  // Most server specs wait on sockets, timers and the databases more than they compute: two
  // files at a time on a two-core machine (jest's default there is one), which keeps `npm test`
  // within CI's 20 minutes. Every spec listens on port 0 and keeps to its own schema, key prefix
  // and data directory, so files never share state.
  maxWorkers: 2,
  // A worker that has grown past this after a file is replaced by a fresh one: what a spec leaves
  // behind (a relay not closed, its timers polling) dies with it instead of slowing every file
  // after it (the whole suite ran 2× slower without it; a file alone, at its normal speed).
  workerIdleMemoryLimit: '1GB',
  // zod made lean as main.ts makes it (core/lean-zod.ts), so the specs run on the schemas production makes.
  setupFiles: ['<rootDir>/test/testing/jest-global-dispatcher.ts', '<rootDir>/src/core/lean-zod.ts', '<rootDir>/test/testing/jest-admin-key-hash.ts'],
};
