// Writes `<file>.gz` (gzip -9) beside each .js, .css and .svg file of a built folder, so the relay
// can send the console's assets compressed without compressing them on every request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node tools/scripts/gzip-assets.mjs <folder>');
  process.exit(2);
}
for (const name of fs.readdirSync(dir)) {
  if (!/\.(js|css|svg)$/.test(name)) continue;
  const file = path.join(dir, name);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
}
