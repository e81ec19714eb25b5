module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'contract',
  rootDir: __dirname,
};
