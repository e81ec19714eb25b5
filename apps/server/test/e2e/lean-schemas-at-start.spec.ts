import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';

const PROBE = path.join(__dirname, '../testing/zod-bound-copies-probe.cjs');
const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');
const counted = (output: string): number | undefined => {
  const match = /zod-bound-copies-probe: (\d+) schemas made with bound copies/.exec(output);
  return match ? Number(match[1]) : undefined;
};

// Issue 30: zod 3 gave each of the bundle's ~5,500 schemas 24 bound copies of its methods, ~7 MB
// of the heap at rest. lean-zod.ts stops that, but only for schemas made after it: main.ts
// imports it second, before any module that makes a schema.
describe('the bundle makes its schemas lean (the real bundle)', () => {
  let relay: SpawnedRelay | undefined;
  afterEach(async () => relay?.close());

  it('the probe counts schemas made the way zod 3 makes them', () => {
    const script = "const { z } = require('zod'); z.object({ a: z.string(), b: z.number() });";
    const run = spawnSync(process.execPath, ['--require', PROBE, '-e', script], { cwd: WORKSPACE_ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    // z.string, z.number, z.object and the z.never() an object makes for its catch-all.
    expect(counted(run.stderr)).toBe(4);
  });

  it('makes none of its schemas with the bound copies', async () => {
    relay = await spawnRelay({ env: { NODE_OPTIONS: `--require ${PROBE}` } });
    const output = relay.output();
    expect(counted(output)).toBe(0);
  });
});
