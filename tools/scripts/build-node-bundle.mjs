// Bundles one workspace entry point for Node with esbuild. Workspace libs (tsconfig paths) are
// bundled in; npm packages stay external and load from node_modules, which keeps native
// modules (better-sqlite3) working and the build under a second.
// Usage: node tools/scripts/build-node-bundle.mjs <entry.ts> <outfile.js>
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [entry, outfile] = process.argv.slice(2);
if (!entry || !outfile) {
  console.error('usage: build-node-bundle.mjs <entry.ts> <outfile.js>');
  process.exit(2);
}
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

await build({
  absWorkingDir: root,
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  tsconfig: 'tsconfig.base.json',
  sourcemap: true,
  define: { __RELAY_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
console.log(`built ${outfile}`);
