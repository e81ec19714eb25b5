import { buildReportRows, stolenNote, type LoadMeasurement } from './report';
import { cpuMicrosPerRequest, growthPerItem, latencyPercentiles, percentileOfSorted, ratio } from './stats';

describe('percentiles', () => {
  it('uses the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentileOfSorted(sorted, 50)).toBe(50);
    expect(percentileOfSorted(sorted, 99)).toBe(99);
    expect(percentileOfSorted([7], 99)).toBe(7);
    expect(percentileOfSorted([], 50)).toBeUndefined();
  });

  it('sorts numerically, not as strings, and keeps fractions of a millisecond', () => {
    expect(latencyPercentiles([10, 9, 0.25, 0.5, 100])).toEqual({ p50: 9, p99: 100 });
  });
});

describe('ratio maths', () => {
  it('divides, and refuses a missing or zero reference', () => {
    expect(ratio(5200, 20800)).toBeCloseTo(0.25);
    expect(ratio(5200, 0)).toBeUndefined();
    expect(ratio(undefined, 10)).toBeUndefined();
  });

  it('turns clock ticks into µs per request', () => {
    // 50 ticks of 10 ms = 0.5 s of CPU over 10,000 requests = 50 µs each.
    expect(cpuMicrosPerRequest(50, 100, 10_000)).toBeCloseTo(50);
    expect(cpuMicrosPerRequest(50, 100, 0)).toBeUndefined();
  });

  it('spreads RSS growth over the streams', () => {
    expect(growthPerItem(100 * 1024 * 1024, 300 * 1024 * 1024, 2000)).toBeCloseTo(104_857.6);
    expect(growthPerItem(undefined, 1, 1)).toBeUndefined();
  });
});

describe('buildReportRows', () => {
  const measurement = (target: LoadMeasurement['target'], rps: number, p50Ms: number, mode: LoadMeasurement['mode'] = 'non-stream'): LoadMeasurement => ({
    target,
    mode,
    connections: mode === 'stream' ? 1 : 32,
    requests: rps * 5,
    rps,
    p50Ms,
    p99Ms: p50Ms * 3,
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    cpuMicrosPerRequest: 100,
    upstreamCpuMicrosPerRequest: undefined,
    loadCpuMicrosPerRequest: undefined,
    peakRssBytes: 50 * 1024 * 1024,
    foreignCpuShare: 0,
    stolenCpuShare: 0,
  });

  it('compares each row with the floor, bare Express and the simulator of the same mode and concurrency', () => {
    const rows = buildReportRows(
      [
        measurement('direct', 30_000, 1.0),
        measurement('floor', 20_000, 1.5),
        measurement('express', 5_000, 6.0),
        measurement('relay', 6_000, 5.0),
        measurement('relay', 1_000, 0.5, 'stream'),
      ],
      [],
    );
    const relay = rows[3];
    expect(relay?.ratioToFloor).toBeCloseTo(0.3);
    expect(relay?.ratioToExpress).toBeCloseTo(1.2);
    expect(relay?.addedP50Ms).toBeCloseTo(4.0);
    expect(rows[0]?.addedP50Ms).toBeUndefined();
    // No floor, Express or direct row in stream mode here: nothing to compare with.
    expect(rows[4]?.ratioToFloor).toBeUndefined();
    expect(rows[4]?.addedP50Ms).toBeUndefined();
  });

  it('puts the time to first byte on stream rows at 1 connection, minus the simulator’s', () => {
    const rows = buildReportRows(
      [measurement('direct', 3000, 0.3, 'stream'), measurement('relay', 1000, 0.9, 'stream'), measurement('relay', 4000, 2.0)],
      [
        { target: 'direct', samples: 200, failures: 0, p50Ms: 0.4, p99Ms: 1 },
        { target: 'relay', samples: 200, failures: 0, p50Ms: 0.7, p99Ms: 2 },
      ],
    );
    expect(rows[1]?.ttfbP50Ms).toBe(0.7);
    expect(rows[1]?.addedTtfbP50Ms).toBeCloseTo(0.3);
    expect(rows[0]?.addedTtfbP50Ms).toBeUndefined();
    expect(rows[2]?.ttfbP50Ms).toBeUndefined();
  });
});

describe('stolenNote', () => {
  it('says a load was not measured on a quiet machine once the hypervisor took more than 2 % of the CPUs', () => {
    expect(stolenNote({ stolenCpuShare: 0.13 })).toBe("the hypervisor took 13 % of the CPUs' time (steal) during the load: not a quiet machine");
    expect(stolenNote({ stolenCpuShare: 0.02 })).toBeUndefined();
    expect(stolenNote({ stolenCpuShare: 0 })).toBeUndefined();
    expect(stolenNote({ stolenCpuShare: undefined })).toBeUndefined();
  });
});
