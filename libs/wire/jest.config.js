module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'wire',
  rootDir: __dirname,
};
