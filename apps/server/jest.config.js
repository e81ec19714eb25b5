module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'server',
  rootDir: __dirname,
  // Most server specs wait on sockets, timers and the databases more than they compute: two
  // files at a time on a two-core machine (jest's default there is one), which keeps `npm test`
  // within CI's 20 minutes. Every spec listens on port 0 and keeps to its own schema, key prefix
  // and data directory, so files never share state.
  maxWorkers: 2,
};
