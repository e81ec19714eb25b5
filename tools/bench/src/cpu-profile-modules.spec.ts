import type { CallFrame, CpuProfile, Locator } from './cpu-profile';
import { moduleOfFrame } from './cpu-profile-module-of';
import { compareModules, moduleTable, sampledMicrosPerRequest, type ModuleTable } from './cpu-profile-modules';

const relayScript = 'dist/apps/server/main.js';
const relayUrl = `file:///repo/${relayScript}`;
const expressProxyUrl = 'file:///repo/dist/tools/bench/express-proxy.js';
const modulesUrl = (file: string): string => `file:///repo/node_modules/${file}`;

type Frame = [id: number, functionName: string, url: string, lineNumber: number, children: number[]];

// A relay stream's work in miniature: (root) → the chat route → the wire transformer (a native
// JSON.parse under it), the chunk reader, the pump writing to a stream, settle → the usage
// writer → better-sqlite3's native `run`, a hub helper; beside them Node, packages, an unmapped
// relay frame and a frame of the Express proxy's bundle.
const frames: Frame[] = [
  [1, '(root)', '', -1, [2, 3, 4, 5, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]],
  [2, '(program)', '', -1, []],
  [3, '(idle)', '', -1, []],
  [4, '(garbage collector)', '', -1, []],
  [5, 'createChatCompletion', relayUrl, 10, [6, 8, 10, 12, 14]],
  [6, 'transform', relayUrl, 20, [7]],
  [7, 'parse', '', -1, []],
  [8, 'readOpenAiChunk', relayUrl, 30, []],
  [10, 'pumpSseStream', relayUrl, 40, [11]],
  [11, 'write', 'node:internal/streams/writable', 300, []],
  [12, 'settle', relayUrl, 50, [13]],
  [13, 'insertBatch', relayUrl, 60, [15]],
  [14, 'toHubChunk', relayUrl, 70, []],
  [15, 'run', '', -1, []],
  [20, 'emit', 'node:events', 400, []],
  [21, 'handle', modulesUrl('express/lib/router/layer.js'), 80, []],
  [22, 'writeGeneric', 'node:internal/stream_base_commons', 150, []],
  [23, 'processTicksAndRejections', 'node:internal/process/task_queues', 60, []],
  [24, 'write_', 'node:_http_outgoing', 800, []],
  [25, 'observe', modulesUrl('prom-client/lib/histogram.js'), 90, []],
  [26, 'asJson', modulesUrl('pino/lib/tools.js'), 100, []],
  [27, 'onData', modulesUrl('undici/lib/dispatcher/client-h1.js'), 700, []],
  [28, 'unmapped', relayUrl, 999, []],
  [29, 'handler', expressProxyUrl, 5, []],
];

const sources: Record<number, string> = {
  10: 'apps/server/src/routes/chat-completions.route.ts',
  20: 'libs/wire/src/openai-chat/upstream/openai-stream-transformer.ts',
  30: 'libs/wire/src/openai-chat/upstream/read-openai-chunk.ts',
  40: 'apps/server/src/pipeline/stream/pump-sse-stream.ts',
  50: 'apps/server/src/pipeline/settle.ts',
  60: 'apps/server/src/storage/sqlite/sqlite-usage-writer.ts',
  70: 'libs/wire/src/hub/hub-chunk.ts',
};
const locate: Locator = (frame: CallFrame) => {
  if (frame.url === expressProxyUrl) return { source: 'tools/bench/src/reference/express-proxy.ts', line: 1 };
  const source = frame.url === relayUrl ? sources[frame.lineNumber] : undefined;
  return source === undefined ? undefined : { source, line: 1 };
};

// Two start-up samples, then the measured load: 4 idle and 20 busy samples, 1 ms each, so 1 sample = 5 % of busy.
const startUp = [28, 29];
const load = [3, 3, 3, 3, 2, 4, 5, 6, 7, 8, 10, 11, 12, 13, 15, 14, 20, 21, 22, 23, 24, 25, 26, 27];
const startTime = 1_000_000;
const sampleTime = (index: number): number => startTime + 1000 * (index + 1);

function buildProfile(): CpuProfile {
  const samples = [...startUp, ...load];
  return {
    nodes: frames.map(([id, functionName, url, lineNumber, children]) => ({
      id,
      callFrame: { functionName, url, lineNumber, columnNumber: lineNumber < 0 ? -1 : 2 },
      children,
    })),
    startTime,
    endTime: sampleTime(samples.length),
    samples,
    timeDeltas: samples.map(() => 1000),
  };
}

const measuredWindow = { fromMicros: sampleTime(startUp.length) - 1, toMicros: sampleTime(startUp.length + load.length) };
const percents = (table: ModuleTable): Record<string, number> =>
  Object.fromEntries(table.rows.filter((row) => row.percentOfBusy > 0).map((row) => [row.module, Math.round(row.percentOfBusy * 100) / 100]));

describe('moduleTable', () => {
  it('attributes the measured window by module: mapped relay sources, packages, Node modules, natives under their caller', () => {
    const table = moduleTable(buildProfile(), { locate, relayScript, window: measuredWindow });
    expect(table).toMatchObject({ windowed: true, samples: 24, sampledMicros: 24_000, idleMicros: 4000, busyMicros: 20_000 });
    expect(percents(table)).toEqual({
      'wire: stream transformers': 15,
      'wire: other': 5,
      pump: 5,
      accounting: 5,
      'usage log': 10,
      metrics: 5,
      logging: 5,
      routes: 5,
      'Express/ts-rest': 5,
      undici: 5,
      'node http': 5,
      sockets: 5,
      'streams/events': 10,
      microtasks: 5,
      GC: 5,
      '(program)': 5,
    });
  });

  it('lists every module in a fixed order, zeros included', () => {
    const rows = moduleTable(buildProfile(), { locate, relayScript }).rows;
    expect(rows[0]).toMatchObject({ module: 'wire: stream transformers' });
    expect(rows.at(-1)).toMatchObject({ module: 'other' });
    expect(rows.find((row) => row.module === 'channels')).toEqual({ module: 'channels', selfMicros: 0, percentOfBusy: 0 });
  });

  it('without a window, or with one that misses the profile, counts the start-up too: an unmapped relay frame and the proxy bundle', () => {
    for (const window of [undefined, { fromMicros: 0, toMicros: 10 }]) {
      const table = moduleTable(buildProfile(), { locate, relayScript, window });
      expect(table).toMatchObject({ windowed: false, samples: 26, busyMicros: 22_000 });
      expect(table.rows.find((row) => row.module === 'other relay')?.selfMicros).toBe(1000);
      expect(table.rows.find((row) => row.module === 'other')?.selfMicros).toBe(1000);
    }
  });

  it('without a locator, relay bundle frames are all `other relay`', () => {
    const table = moduleTable(buildProfile(), { relayScript, window: measuredWindow });
    expect(percents(table)['other relay']).toBe(45); // 9 samples: 7 relay frames and 2 natives under them
    expect(percents(table)['wire: stream transformers']).toBeUndefined();
  });
});

describe('compareModules', () => {
  it('gives each module its share of busy time × the process CPU per request, leaving out rows zero everywhere', () => {
    const relay = moduleTable(buildProfile(), { locate, relayScript, window: measuredWindow });
    const express = moduleTable(buildProfile(), { window: measuredWindow });
    const rows = compareModules([
      { label: 'express', table: express, cpuMicrosPerRequest: 100, requests: 10 },
      { label: 'relay', table: relay, cpuMicrosPerRequest: 200, requests: 10 },
    ]);
    expect(rows.find((row) => row.module === 'wire: stream transformers')?.cells).toEqual([
      { label: 'express', microsPerRequest: 0, percentOfBusy: 0 },
      { label: 'relay', microsPerRequest: 30, percentOfBusy: 15 },
    ]);
    expect(rows.find((row) => row.module === 'GC')?.cells.map((cell) => cell.microsPerRequest)).toEqual([5, 10]);
    expect(rows.map((row) => row.module)).not.toContain('channels');
  });

  it('has no µs per request without /proc figures; the sampled figure is busy time over requests', () => {
    const table = moduleTable(buildProfile(), { locate, relayScript, window: measuredWindow });
    const [gc] = compareModules([{ label: 'relay', table, cpuMicrosPerRequest: undefined, requests: 0 }]).filter((row) => row.module === 'GC');
    expect(gc?.cells).toEqual([{ label: 'relay', microsPerRequest: undefined, percentOfBusy: 5 }]);
    expect(sampledMicrosPerRequest({ label: 'relay', table, cpuMicrosPerRequest: 1, requests: 40 })).toBe(500);
    expect(sampledMicrosPerRequest({ label: 'relay', table, cpuMicrosPerRequest: 1, requests: 0 })).toBeUndefined();
  });
});

describe('moduleOfFrame', () => {
  const mapped = (source: string): string => moduleOfFrame({ url: relayUrl, source, isRelayBundle: true });
  const script = (url: string): string => moduleOfFrame({ url, source: undefined, isRelayBundle: false });

  it('sorts relay sources into issue 30 modules', () => {
    expect(mapped('libs/wire/src/gemini/upstream/gemini-stream-transformer.ts')).toBe('wire: stream transformers');
    expect(mapped('libs/wire/src/openai-chat/upstream/edit-chunk-text.ts')).toBe('wire: stream transformers');
    expect(mapped('libs/wire/src/hub/read-hub-chunk.ts')).toBe('wire: stream transformers');
    expect(mapped('libs/wire/src/openai-chat/upstream/content-chunk-frame.ts')).toBe('wire: stream transformers');
    expect(mapped('libs/wire/src/hub/upstream-adapter.ts')).toBe('wire: other');
    expect(mapped('apps/server/src/pipeline/account-usage.ts')).toBe('accounting');
    expect(mapped('apps/server/src/pipeline/usage-recorder.ts')).toBe('accounting');
    expect(mapped('apps/server/src/billing/price-book.ts')).toBe('accounting');
    expect(mapped('apps/server/src/pipeline/attempt.ts')).toBe('pipeline');
    expect(mapped('apps/server/src/storage/sqlite/sqlite-usage-writer.ts')).toBe('usage log');
    expect(mapped('apps/server/src/storage/sqlite/sqlite-token-store.ts')).toBe('other relay');
    expect(mapped('apps/server/src/metrics/relay-metrics.ts')).toBe('metrics');
    expect(mapped('apps/server/src/logger.ts')).toBe('logging');
    expect(mapped('apps/server/src/middleware/json-body.ts')).toBe('middleware');
    expect(mapped('apps/server/src/security/ip-allow-list.ts')).toBe('policy/auth');
    expect(mapped('apps/server/src/auth/caller.ts')).toBe('policy/auth');
    expect(mapped('apps/server/src/policy/enforce-token-policy.ts')).toBe('policy/auth');
    expect(mapped('apps/server/src/channels/registry.ts')).toBe('channels');
    expect(mapped('libs/contract/src/chat.ts')).toBe('other relay');
    expect(mapped('node_modules/@ts-rest/express/index.cjs.js')).toBe('Express/ts-rest');
  });

  it('sorts packages and Node modules', () => {
    expect(script(modulesUrl('@ts-rest/core/index.cjs.js'))).toBe('Express/ts-rest');
    expect(script(modulesUrl('body-parser/lib/types/json.js'))).toBe('Express/ts-rest');
    expect(script(modulesUrl('better-sqlite3/lib/methods/wrappers.js'))).toBe('usage log');
    expect(script(modulesUrl('sonic-boom/index.js'))).toBe('logging');
    expect(script(modulesUrl('zod/v3/types.js'))).toBe('other');
    expect(script('node:internal/deps/undici/undici')).toBe('undici');
    expect(script('node:_http_server')).toBe('node http');
    expect(script('node:net')).toBe('sockets');
    expect(script('node:internal/process/task_queues')).toBe('microtasks');
    expect(script('node:internal/streams/readable')).toBe('streams/events');
    expect(script('node:buffer')).toBe('other');
    expect(moduleOfFrame({ url: relayUrl, source: undefined, isRelayBundle: true })).toBe('other relay');
  });
});
