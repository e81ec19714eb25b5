// `preset` (a path jest resolves) rather than require(): the module-boundary lint rule
// forbids relative imports that leave the project.
module.exports = {
  preset: '../../jest.preset.js',
  displayName: 'fuzz',
  rootDir: __dirname,
};
