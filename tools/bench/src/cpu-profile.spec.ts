import { formatProfileSummary } from './cpu-profile-format';
import { groupOfUrl } from './cpu-profile-labels';
import {
  parseCpuProfile,
  sampleWeights,
  summarizeCpuProfile,
  type CpuProfile,
  type ProfileSummary,
} from './cpu-profile';

const relayScript = 'dist/apps/server/main.js';
const relayUrl = `file:///repo/${relayScript}`;

type Frame = [id: number, functionName: string, url: string, lineNumber: number, children: number[]];

// (root) → pseudo-frames; the chat handler in the relay bundle with auth, body parsing, zod, ts-rest
// and the upstream call under it; a native frame, wasm under undici (installed by pnpm), and
// `authenticate` a second time under an event emitter.
const frames: Frame[] = [
  [1, '(root)', '', -1, [2, 3, 4, 5, 15, 17, 18]],
  [2, '(program)', '', -1, []],
  [3, '(idle)', '', -1, []],
  [4, '(garbage collector)', '', -1, []],
  [5, 'createChatCompletion', relayUrl, 99, [6, 8, 10, 11, 12]],
  [6, 'authenticate', relayUrl, 10, [7]],
  [7, 'lstat', '', -1, []],
  [8, 'parse', 'file:///repo/node_modules/body-parser/lib/types/json.js', 40, [9]],
  [9, 'parse', '', -1, []],
  [10, 'parse', 'file:///repo/node_modules/zod/v3/types.js', 700, []],
  [11, 'Parser', 'file:///repo/node_modules/@ts-rest/core/index.cjs.js', 5, []],
  [12, 'relayChatCompletion', relayUrl, 200, [13]],
  [13, 'attemptChannel', relayUrl, 230, [14]],
  [14, 'write', 'node:internal/streams/writable', 300, []],
  [15, 'emit', 'node:events', 400, [19]],
  [16, 'wasm-function[42]', 'wasm://wasm/0a1b2c', 0, []],
  [17, 'execute', 'file:///repo/node_modules/.pnpm/undici@7.16.0/node_modules/undici/lib/dispatcher/client-h1.js', 50, [16]],
  [18, 'lstat', '', -1, []],
  [19, 'authenticate', relayUrl, 10, []],
];

// µs of self time per node; total 14,000, of which 4,000 idle: 10,000 busy, so 100 µs = 1 %.
const selfMicros: [id: number, micros: number][] = [
  [2, 1000],
  [3, 4000],
  [4, 1000],
  [5, 500],
  [6, 1000],
  [7, 500],
  [8, 500],
  [9, 1000],
  [10, 500],
  [11, 500],
  [14, 1000],
  [15, 500],
  [16, 1000],
  [18, 500],
  [19, 500],
];

/**
 * A profile whose samples weigh `selfMicros` under the DevTools convention: each sample stands
 * for the time until the next one, the last until endTime. Samples come in 500 µs steps.
 */
function buildProfile(): CpuProfile {
  const samples: number[] = [];
  for (const [id, micros] of selfMicros) for (let step = 0; step < micros / 500; step++) samples.push(id);
  const startTime = 1_000_000;
  const timeDeltas = samples.map((_id, index) => (index === 0 ? 250 : 500));
  return {
    nodes: frames.map(([id, functionName, url, lineNumber, children]) => ({
      id,
      callFrame: { functionName, url, lineNumber, columnNumber: lineNumber < 0 ? -1 : 4 },
      children,
    })),
    startTime,
    endTime: startTime + 250 + 500 * samples.length,
    samples,
    timeDeltas,
  };
}

const summarize = (options: Partial<Parameters<typeof summarizeCpuProfile>[1]> = {}): ProfileSummary =>
  summarizeCpuProfile(buildProfile(), { relayScript, ...options });

describe('sampleWeights', () => {
  it('gives each sample the time until the next, the last until endTime, and 0 for a negative delta', () => {
    const weights = sampleWeights({ startTime: 100, endTime: 130, timeDeltas: [10, 5, -2, 7] });
    expect([...weights]).toEqual([5, 0, 7, 10]);
  });
});

describe('groupOfUrl', () => {
  it('names the innermost npm package, scoped ones with their scope', () => {
    expect(groupOfUrl('file:///repo/node_modules/express/lib/router/index.js', relayScript)).toBe('express');
    expect(groupOfUrl('file:///repo/node_modules/@ts-rest/express/index.cjs.js', relayScript)).toBe('@ts-rest/express');
    expect(groupOfUrl('file:///repo/node_modules/.pnpm/a@1/node_modules/@scope/b/x.js', relayScript)).toBe('@scope/b');
    expect(groupOfUrl('file:///repo/node_modules/express/node_modules/debug/src/node.js', relayScript)).toBe('debug');
  });

  it('groups Node internals by module, internal ones by their subsystem', () => {
    expect(groupOfUrl('node:events', relayScript)).toBe('node:events');
    expect(groupOfUrl('node:_http_server', relayScript)).toBe('node:_http_server');
    expect(groupOfUrl('node:internal/streams/readable', relayScript)).toBe('node:internal/streams');
    expect(groupOfUrl('node:internal/deps/undici/undici', relayScript)).toBe('node:internal/deps/undici');
  });

  it('knows the relay bundle, calls other scripts (other), and leaves natives and wasm to their caller', () => {
    expect(groupOfUrl(relayUrl, relayScript)).toBe('relay');
    expect(groupOfUrl('/repo/dist/apps/server/main.js', relayScript)).toBe('relay');
    expect(groupOfUrl('file:///repo/dist/tools/bench/main.js', relayScript)).toBe('(other)');
    expect(groupOfUrl('', relayScript)).toBeUndefined();
    expect(groupOfUrl('wasm://wasm/0a1b2c', relayScript)).toBeUndefined();
  });
});

describe('summarizeCpuProfile', () => {
  it('totals the sampled time and gives idle as a share of all, GC and (program) as shares of non-idle', () => {
    const summary = summarize();
    expect(summary.samples).toBe(28);
    expect(summary.totalMs).toBe(14);
    expect(summary.idleMs).toBe(4);
    expect(summary.idlePercent).toBeCloseTo(28.57, 2);
    expect(summary.gcMs).toBe(1);
    expect(summary.gcPercentOfBusy).toBe(10);
    expect(summary.programPercentOfBusy).toBe(10);
  });

  it('groups self time by package, natives and wasm under their caller, pseudo-frames on their own', () => {
    const groups = Object.fromEntries(summarize().groups.map((group) => [group.group, group.selfMs]));
    expect(groups).toEqual({
      relay: 2.5, // 5, 6, 19 and the native lstat under authenticate
      'body-parser': 1.5, // its parse and the native JSON parse it calls
      '(idle)': 4,
      '(program)': 1,
      '(garbage collector)': 1,
      'node:internal/streams': 1,
      undici: 1, // the wasm parser under the pnpm-installed undici
      zod: 0.5,
      '@ts-rest/core': 0.5,
      'node:events': 0.5,
      '(native)': 0.5, // a native frame straight under (root)
    });
    const relay = summarize().groups.find((group) => group.group === 'relay');
    expect(relay).toMatchObject({ percentOfBusy: 25, percentOfTotal: expect.closeTo(17.86, 2) });
    expect(summarize().groups.find((group) => group.group === '(idle)')?.percentOfBusy).toBeUndefined();
    expect(summarize().groups[0]?.group).toBe('(idle)');
  });

  it('lists functions by self time, one function at several stack positions once, pseudo-frames not at all', () => {
    const top = summarize().topFunctions;
    expect(top[0]).toEqual({
      functionName: 'authenticate',
      group: 'relay',
      location: 'main.js:11',
      source: relayUrl,
      selfMs: 1.5,
      percentOfBusy: 15,
    });
    expect(top.map((fn) => fn.functionName)).not.toContain('(idle)');
    expect(top.map((fn) => fn.functionName)).not.toContain('(program)');
    expect(top.find((fn) => fn.location === '(native)' && fn.functionName === 'parse')).toMatchObject({ selfMs: 1, group: 'body-parser' });
    expect(top.find((fn) => fn.functionName === 'write')?.location).toBe('node:internal/streams/writable:301');
    expect(summarize({ top: 3 }).topFunctions).toHaveLength(3);
    const selfTimes = top.map((fn) => fn.selfMs);
    expect(selfTimes).toEqual([...selfTimes].sort((a, b) => b - a));
  });

  it('maps frames through the locator when it knows them', () => {
    const top = summarize({
      locate: (frame) => (frame.functionName === 'authenticate' ? { source: 'apps/server/src/middleware/bearer-auth.ts', line: 59 } : undefined),
    }).topFunctions;
    expect(top[0]).toMatchObject({ location: 'bearer-auth.ts:59', source: 'apps/server/src/middleware/bearer-auth.ts' });
    expect(top.find((fn) => fn.functionName === 'createChatCompletion')?.location).toBe('main.js:100');
  });

  it('times stages inclusively, each sample once per stage, only in the stage’s own group', () => {
    const stages = Object.fromEntries(summarize().stages.map((stage) => [stage.label, stage.inclusiveMs]));
    expect(stages['chat route handler']).toBe(5.5);
    expect(stages['auth (token lookup)']).toBe(2); // both stack positions and the native under it
    expect(stages['JSON body parse']).toBe(1.5); // body-parser's parse, not zod's
    expect(stages['relay to upstream']).toBe(1); // relayChatCompletion and attemptChannel nest: counted once
    expect(stages['usage log write']).toBeUndefined(); // never sampled, so not listed
    expect(summarize().stages.find((stage) => stage.label === 'auth (token lookup)')?.percentOfBusy).toBe(20);
  });

  it('rejects a sample naming a node the profile does not have', () => {
    const profile = buildProfile();
    profile.samples[3] = 99;
    expect(() => summarizeCpuProfile(profile, { relayScript })).toThrow('sample 3 names node 99');
  });
});

describe('parseCpuProfile', () => {
  it('accepts a profile, extra fields and all', () => {
    const json: unknown = JSON.parse(JSON.stringify({ ...buildProfile(), extra: true }));
    expect(parseCpuProfile(json).samples).toHaveLength(28);
  });

  it('names what is wrong with anything else', () => {
    expect(() => parseCpuProfile({ nodes: [] })).toThrow('not a V8 CPU profile');
    expect(() => parseCpuProfile({ ...buildProfile(), timeDeltas: [1] })).toThrow('samples and timeDeltas differ in length');
    expect(() => parseCpuProfile({ ...buildProfile(), samples: 'x' })).toThrow('samples');
  });
});

describe('formatProfileSummary', () => {
  it('prints the header, the functions, the groups and the stages', () => {
    const text = formatProfileSummary(summarize(), 'relay CPU profile').join('\n');
    expect(text).toContain('relay CPU profile: 14.0 ms sampled (28 samples), idle 28.6 %; of non-idle time, GC 10.0 % and (program) 10.0 %');
    expect(text).toMatch(/15\.0 % +1\.5 ms +authenticate +main\.js:11 +relay/);
    expect(text).toMatch(/body-parser +1\.5 ms +10\.7 % +15\.0 %/);
    expect(text).toMatch(/relay to upstream +1\.0 ms +10\.0 % +relayChatCompletion, attemptChannel/);
  });

  it('lists the largest groups and sums up the rest', () => {
    const lines = formatProfileSummary(summarize(), 'relay CPU profile', 3);
    expect(lines).toContain('  … 8 more groups, 6.0 ms together');
    expect(lines.join('\n')).toMatch(/^ {2}body-parser /m);
    expect(lines.join('\n')).not.toMatch(/^ {2}node:events /m);
  });
});
