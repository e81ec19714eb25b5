// One relay, one simulator and one Chromium per spec file, files one after the other: the
// browser flows are slow and the machine is shared.
module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'console-e2e',
  rootDir: __dirname,
  testEnvironment: 'node',
  testTimeout: 60_000,
  maxWorkers: 1,
};
