module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'server',
  rootDir: __dirname,
};
