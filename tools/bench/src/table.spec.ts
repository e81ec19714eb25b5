import { formatLargeBodies } from './large-bodies-table';
import type { BenchReport, LargeBodyRow, ReportRow, SlowStreamsResult } from './report';
import { cpuShares, formatNumber, formatRows, formatReport, formatSigned, formatSlowStreams, formatSlowStreamsLines } from './table';

const row = (target: ReportRow['target'], rps: number, extra: Partial<ReportRow> = {}): ReportRow => ({
  target,
  mode: 'non-stream',
  connections: 32,
  requests: rps * 5,
  rps,
  p50Ms: 1.234,
  p99Ms: 9.876,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  cpuMicrosPerRequest: 51.4,
  upstreamCpuMicrosPerRequest: undefined,
  loadCpuMicrosPerRequest: undefined,
  peakRssBytes: 64 * 1024 * 1024,
  foreignCpuShare: 0,
  stolenCpuShare: 0,
  addedP50Ms: 0.21,
  ttfbP50Ms: undefined,
  addedTtfbP50Ms: undefined,
  ratioToFloor: 1,
  ratioToExpress: 3.84,
  ...extra,
});

describe('number formatting', () => {
  it('uses separators, fixed decimals, and a dash for what was not measured', () => {
    expect(formatNumber(20123.4, 0)).toBe('20,123');
    expect(formatNumber(0.5, 2)).toBe('0.50');
    expect(formatNumber(undefined, 2)).toBe('—');
    expect(formatNumber(Number.NaN, 2)).toBe('—');
  });

  it('signs added latencies, negative ones included', () => {
    expect(formatSigned(0.21, 2)).toBe('+0.21');
    expect(formatSigned(-0.05, 2)).toBe('-0.05');
    expect(formatSigned(undefined, 2)).toBe('—');
  });
});

describe('formatRows', () => {
  it('aligns every column under its header: names left, numbers right', () => {
    const lines = formatRows([row('floor', 20123), row('relay', 987, { ratioToFloor: 0.049, non2xx: 3, errors: 2 })]);
    expect(lines[0]).toMatch(/^target\s+RPS\s+p50 ms/);
    expect(lines[1]).toMatch(/^-+$/);
    expect(lines[2]).toMatch(/^floor\s+20,123\s+1\.23\s+9\.88\s+\+0\.21\s+—\s+—\s+51\s+64\.0\s+1\.00×\s+3\.84×\s+0$/);
    expect(lines[3]).toMatch(/^relay\s+987 .* 0\.05×\s+3\.84×\s+5$/);
    const widths = new Set(lines.map((line) => line.length));
    expect(widths.size).toBe(1);
  });
});

describe('formatRows with --shared-stores', () => {
  it('shows the relay on PostgreSQL + Redis by its name beside the SQLite relay, in the same columns', () => {
    const lines = formatRows([row('relay', 2067), row('relay (PostgreSQL + Redis)', 1543, { ratioToExpress: 0.72 })]);
    expect(lines[2]).toMatch(/^relay {2,}2,067 /);
    expect(lines[3]).toMatch(/^relay \(PostgreSQL \+ Redis\) {2,}1,543 .* 0\.72×\s+0$/);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });
});

const largeBody: LargeBodyRow = {
  name: 'relayed, bridged chat → anthropic',
  bodyBytes: 18_040_000,
  callers: 4,
  perCaller: 2,
  statuses: { '200': 8 },
  requestP50Ms: 2140.4,
  requestMaxMs: 3020,
  seconds: 6.53,
  healthz: { samples: 900, p50Ms: 1.24, p99Ms: 61.9, maxMs: 104.2, over100Ms: 1 },
  loopLagMaxMs: 98.6,
};

describe('formatLargeBodies', () => {
  it('one line a load: what came back, how long, and the health check and event loop meanwhile', () => {
    expect(formatLargeBodies([largeBody])).toEqual([
      'large bodies (a fresh relay; /healthz every 5 ms from a process of its own; goal: p99 ≤ 100 ms)',
      '- relayed, bridged chat → anthropic: 4 × 2 of 18.0 MB → 8 × 200 in 6.5 s (request p50 2,140 ms, max 3,020 ms); ' +
        '/healthz p50 1.2 ms, p99 61.9 ms, max 104.2 ms (1 of 900 over 100 ms); event-loop delay max 99 ms',
    ]);
    expect(formatLargeBodies([])).toEqual([]);
  });
});

const slowStreams = (target: SlowStreamsResult['target'], extra: Partial<SlowStreamsResult> = {}): SlowStreamsResult => ({
  target,
  warmupStreams: 5,
  requested: 2000,
  completed: 2000,
  failed: 0,
  peakOpen: 2000,
  msPerToken: 100,
  chunksPerStream: 44,
  seconds: 6.04,
  rssBeforeBytes: 80 * 1024 * 1024,
  rssPeakBytes: 180 * 1024 * 1024,
  growthPerStreamBytes: 51.2 * 1024,
  firstFailure: undefined,
  ...extra,
});

describe('formatReport', () => {
  it('groups rows by mode (embeddings after the chat modes), then by connections, and ends with the slow streams', () => {
    const report: BenchReport = {
      machine: { cpus: 2, cpuModel: 'Test CPU', node: '20.0.0', loadAverageAtStart: '0.10 0.10 0.10', busyBeforeRun: 0.02, clockTicksPerSecond: 100 },
      settings: { durationSeconds: 5, warmupSeconds: 1, slices: 5, prewarmSeconds: 3, ttfbRequests: 200, quick: false, peers: false, sharedStores: false },
      idle: [
        { target: 'express', rssBytes: 72.25 * 1024 * 1024 },
        { target: 'relay', rssBytes: 91.5 * 1024 * 1024 },
      ],
      rows: [
        row('relay', 4, { mode: 'embeddings' }),
        row('relay', 1, { mode: '64k', connections: 1 }),
        row('relay', 2, { connections: 128 }),
        row('relay', 3, { connections: 1 }),
      ],
      ttfb: [],
      slowStreams: [],
      largeBodies: [largeBody],
      profile: undefined,
      notes: ['a note'],
    };
    const text = formatReport(report);
    expect(text).toContain('each target warmed 3 s per workload first; 5 s per load after 1 s warm-up, in 5 windows taken in turn across the targets;');
    const sequential = formatReport({ ...report, settings: { ...report.settings, slices: 1, prewarmSeconds: 0 } });
    expect(sequential).toContain('\n5 s per load after 1 s warm-up; TTFB');
    const order = [
      'idle RSS (no load, 12 s after the first requests): express 72.3 MB, relay 91.5 MB',
      'non-stream · 1 connection',
      'non-stream · 128 connections',
      '64k · 1 connection',
      'embeddings · 32 connections',
      'slow streams: not run',
      'large bodies',
      '- a note',
    ];
    const positions = order.map((heading) => text.indexOf(heading));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('states how many slow streams came back whole through which target, and the RSS each cost after the warm-up', () => {
    const line = formatSlowStreams(slowStreams('relay', { completed: 1998, failed: 2, firstFailure: 'status 502' }));
    expect(line).toBe(
      'slow streams relay: 1998/2000 completed, 2 failed (first: status 502); peak 2000 open at once ' +
        '(100 ms/token × 44 chunks, 6.0 s); RSS 80.0 MB after 5 warm-up streams → 180.0 MB at peak, 51.2 KB per stream',
    );
  });

  it('prints the relay and then its Express reference, each on its own line, and a dash for a missing reading', () => {
    const lines = formatSlowStreamsLines([
      slowStreams('relay'),
      slowStreams('express', { peakOpen: 1500, rssPeakBytes: undefined, growthPerStreamBytes: undefined }),
    ]);
    expect(lines).toEqual([
      'slow streams relay: 2000/2000 completed, none dropped; peak 2000 open at once (100 ms/token × 44 chunks, 6.0 s); ' +
        'RSS 80.0 MB after 5 warm-up streams → 180.0 MB at peak, 51.2 KB per stream',
      'slow streams express: 2000/2000 completed, none dropped; peak 1500 open at once (100 ms/token × 44 chunks, 6.0 s); ' +
        'RSS 80.0 MB after 5 warm-up streams → — MB at peak, —',
    ]);
    expect(formatSlowStreamsLines([])).toEqual(['slow streams: not run']);
  });

  it('puts both slow-streams lines after the blocks, even when the loads produced no rows', () => {
    const report: BenchReport = {
      machine: { cpus: 2, cpuModel: 'Test CPU', node: '20.0.0', loadAverageAtStart: '0.10 0.10 0.10', busyBeforeRun: 0.02, clockTicksPerSecond: 100 },
      settings: { durationSeconds: 5, warmupSeconds: 1, slices: 5, prewarmSeconds: 3, ttfbRequests: 200, quick: false, peers: false, sharedStores: false },
      idle: [],
      rows: [],
      ttfb: [],
      slowStreams: [slowStreams('relay'), slowStreams('express', { growthPerStreamBytes: 20.5 * 1024 })],
      largeBodies: [],
      profile: undefined,
      notes: [],
    };
    const lines = formatReport(report).split('\n');
    const relay = lines.findIndex((line) => line.startsWith('slow streams relay: '));
    expect(relay).toBeGreaterThan(0);
    expect(lines[relay + 1]).toMatch(/^slow streams express: .*, 20\.5 KB per stream$/);
    expect(lines).not.toContain('slow streams: not run');
  });
});

describe('cpuShares', () => {
  it("names the target's, the simulator's and the load generator's CPU a request, and what is unknown is left out", () => {
    expect(cpuShares({ cpuMicrosPerRequest: 288.4, upstreamCpuMicrosPerRequest: 190.6, loadCpuMicrosPerRequest: 70 })).toBe(
      '; CPU µs/req 288, simulator 191, load generator 70',
    );
    expect(cpuShares({ cpuMicrosPerRequest: 150, upstreamCpuMicrosPerRequest: undefined, loadCpuMicrosPerRequest: 60 })).toBe('; CPU µs/req 150, load generator 60');
    expect(cpuShares({ cpuMicrosPerRequest: undefined, upstreamCpuMicrosPerRequest: 1, loadCpuMicrosPerRequest: 1 })).toBe('');
  });
});
