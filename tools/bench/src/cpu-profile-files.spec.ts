import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { newestProfile, relayLocator, waitForProfile } from './cpu-profile-files';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'bench-profile-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `name` in the temp directory, modified at `seconds` (epoch). */
function writeAt(name: string, seconds: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, '{}');
  utimesSync(file, seconds, seconds);
  return file;
}

describe('newestProfile', () => {
  it('picks the newest .cpuprofile modified since the given time, and nothing else', () => {
    writeAt('old.cpuprofile', 1000);
    const newer = writeAt('newer.cpuprofile', 2000);
    writeAt('newest.json', 3000);
    expect(newestProfile(dir)).toBe(newer);
    expect(newestProfile(dir, 2_500_000)).toBeUndefined();
    expect(newestProfile(path.join(dir, 'missing'))).toBeUndefined();
  });
});

describe('waitForProfile', () => {
  it('gives up after the timeout when none is written', async () => {
    expect(await waitForProfile(dir, 0, 150)).toBeUndefined();
  });

  it('returns a profile written while it waits', async () => {
    const file = path.join(dir, 'CPU.1.cpuprofile');
    setTimeout(() => writeFileSync(file, '{"nodes":[]}'), 100);
    expect(await waitForProfile(dir, Date.now() - 1000, 2000)).toBe(file);
  });
});

describe('relayLocator', () => {
  it('maps a frame of the relay bundle through its sibling source map, sources relative to the root', () => {
    const bundle = path.join(dir, 'dist/apps/server/main.js');
    mkdirSync(path.dirname(bundle), { recursive: true });
    writeFileSync(bundle, 'a;\nb;\n');
    // Generated line 1 (0-based) column 0 → source 0, line 2 (0-based), column 0.
    const map = { version: 3, sources: ['../../../apps/server/src/a.ts'], names: [], mappings: 'AAAA;AAEA' };
    writeFileSync(`${bundle}.map`, JSON.stringify(map));
    const locate = relayLocator(dir);
    const frame = { functionName: 'f', url: pathToFileURL(bundle).href, lineNumber: 1, columnNumber: 0 };
    expect(locate(frame)).toEqual({ source: path.join('apps', 'server', 'src', 'a.ts'), line: 3 });
    expect(locate({ ...frame, url: 'node:events' })).toBeUndefined();
    expect(locate({ ...frame, lineNumber: -1 })).toBeUndefined();
  });

  it('leaves frames unmapped when the bundle has no map', () => {
    const locate = relayLocator(dir);
    const url = pathToFileURL(path.join(dir, 'dist/apps/server/main.js')).href;
    expect(locate({ functionName: 'f', url, lineNumber: 1, columnNumber: 0 })).toBeUndefined();
  });
});
