// Bundles one workspace entry point for Node with esbuild. Workspace libs (tsconfig paths) are
// bundled in; npm packages stay external and load from node_modules, which keeps native
// modules (better-sqlite3) working and the build under a second.
// Usage: node tools/scripts/build-node-bundle.mjs <entry.ts> <outfile.js>
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [entry, outfile] = process.argv.slice(2);
if (!entry || !outfile) {
  console.error('usage: build-node-bundle.mjs <entry.ts> <outfile.js>');
  process.exit(2);
}
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const { outputFiles } = await build({
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
  write: false,
});
for (const file of outputFiles) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  // esbuild escapes non-ASCII in code (charset 'ascii'), not in the comments it keeps: one '—'
  // there made V8 hold the whole source as UTF-16, 2.6 MB instead of 1.3 for the relay. Each
  // UTF-16 unit becomes one '?', so the source map's columns stay right.
  const text = file.path.endsWith('.js') ? file.text.replace(/[^\x00-\x7f]/g, '?') : file.text;
  writeFileSync(file.path, text);
}
console.log(`built ${outfile}`);
