// The real coding-agent CLIs through the built relay: one relay and one simulator per file,
// files one after the other (each CLI run is a process of its own, and the machine is shared).
module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'agents-e2e',
  rootDir: __dirname,
  testEnvironment: 'node',
  testTimeout: 120_000,
  maxWorkers: 1,
};
