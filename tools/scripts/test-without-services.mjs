// `npm run test:without-services`: every spec that needs PostgreSQL or Redis, run with
// DATABASE_URL and REDIS_URL removed — what a newcomer's `npm test` does on a machine without
// them. Each must skip saying why, and nothing may fail (Jest refuses a file left with no test).
// CI runs this after the full suite, which has the services.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What a spec names when it needs a service: the variables, or the helpers that read them. */
const NEEDS_A_SERVICE =
  /DATABASE_URL|REDIS_URL|storeBackends|describeEachBackend|describeOnPostgres|describeWithRedis|describeTwoInstances/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'tmp', '.nx', '.git']);

function* specFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* specFiles(full);
    else if (/\.spec\.tsx?$/.test(entry.name)) yield full;
  }
}

/** The Jest config of the project holding `file`: the nearest jest.config.js above it. */
function jestConfigOf(file) {
  for (let dir = path.dirname(file); dir.startsWith(root) && dir !== root; dir = path.dirname(dir)) {
    const config = path.join(dir, 'jest.config.js');
    if (existsSync(config)) return config;
  }
  throw new Error(`no jest.config.js above ${file}`);
}

const byConfig = new Map();
for (const top of ['apps', 'libs', 'tools']) {
  for (const file of specFiles(path.join(root, top))) {
    if (!NEEDS_A_SERVICE.test(readFileSync(file, 'utf8'))) continue;
    const config = jestConfigOf(file);
    byConfig.set(config, [...(byConfig.get(config) ?? []), file]);
  }
}

const env = { ...process.env };
delete env.DATABASE_URL;
delete env.REDIS_URL;
let failed = false;
for (const [config, files] of byConfig) {
  console.log(`${path.relative(root, config)}: ${files.length} spec files without DATABASE_URL and REDIS_URL`);
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules/jest/bin/jest.js'), '-c', config, '--ci', ...files], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (run.status !== 0) failed = true;
}
if (byConfig.size === 0) {
  console.error('no spec names a service: the pattern in tools/scripts/test-without-services.mjs is out of date');
  failed = true;
}
process.exit(failed ? 1 : 0);
