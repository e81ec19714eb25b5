import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { summariseWindows, type LoadPlan, type LoadWindow, type Target } from './load-runner';
import { measureRow, prewarm, windowOrder } from './measure-row';

describe('windowOrder', () => {
  it('takes the targets as given, then reversed, round after round', () => {
    expect(windowOrder(3, 3)).toEqual([[0, 1, 2], [2, 1, 0], [0, 1, 2]]);
    expect(windowOrder(2, 1)).toEqual([[0, 1]]);
    expect(windowOrder(0, 2)).toEqual([[], []]);
  });
});

function window(overrides: Partial<LoadWindow>): LoadWindow {
  return {
    latencies: [],
    elapsedSeconds: 1,
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    answered: 0,
    ticks: 0,
    upstreamTicks: 0,
    loadTicks: 0,
    peakRssBytes: 1,
    foreignTicks: { foreign: 0, stolen: 0, total: 200 },
    fromMicros: 0,
    toMicros: 1,
    ...overrides,
  };
}

describe('summariseWindows', () => {
  const plan = { mode: 'stream' as const, connections: 32 };

  it('divides the summed CPU by the summed answers and the requests by the summed time, not by averaging rates', () => {
    const measurement = summariseWindows('relay', plan, [
      window({ latencies: [1, 1, 1], answered: 3, ticks: 3, elapsedSeconds: 1, peakRssBytes: 50 }),
      window({ latencies: [2], answered: 1, ticks: 5, elapsedSeconds: 3, peakRssBytes: 70, non2xx: 0, foreignTicks: { foreign: 100, stolen: 20, total: 200 } }),
    ]);
    expect(measurement.requests).toBe(4);
    expect(measurement.rps).toBeCloseTo(1); // 4 requests in 4 s (the mean of 3/s and 1/3/s would read 1.67)
    expect(measurement.cpuMicrosPerRequest).toBeCloseTo((8 / 100 / 4) * 1e6); // 8 ticks of 10 ms over 4 answers
    expect(measurement.peakRssBytes).toBe(70);
    expect(measurement.foreignCpuShare).toBeCloseTo(100 / 400);
    expect(measurement.stolenCpuShare).toBeCloseTo(20 / 400);
    expect(measurement.p99Ms).toBe(2);
  });

  it("gives the simulator's and the load generator's CPU over the same answers as the target's", () => {
    const measurement = summariseWindows('relay', plan, [
      window({ latencies: [1, 1, 1], answered: 3, ticks: 3, upstreamTicks: 2, loadTicks: 1 }),
      window({ latencies: [1], answered: 1, ticks: 5, upstreamTicks: 4, loadTicks: 3 }),
    ]);
    expect(measurement.upstreamCpuMicrosPerRequest).toBeCloseTo((6 / 100 / 4) * 1e6);
    expect(measurement.loadCpuMicrosPerRequest).toBeCloseTo((4 / 100 / 4) * 1e6);
    // `direct` has no simulator behind it: unknown, not zero.
    const direct = summariseWindows('direct', plan, [window({ latencies: [1], answered: 1, ticks: 1, upstreamTicks: undefined, loadTicks: 1 })]);
    expect(direct.upstreamCpuMicrosPerRequest).toBeUndefined();
    expect(direct.loadCpuMicrosPerRequest).toBeCloseTo(1e4);
  });

  it('leaves CPU, peak and neighbours unknown when any window could not read them', () => {
    const measurement = summariseWindows('relay', plan, [
      window({ latencies: [1], answered: 1, ticks: 2 }),
      window({ latencies: [1], answered: 1, ticks: undefined, peakRssBytes: undefined, foreignTicks: undefined }),
    ]);
    expect(measurement.cpuMicrosPerRequest).toBeUndefined();
    expect(measurement.peakRssBytes).toBeUndefined();
    expect(measurement.foreignCpuShare).toBeUndefined();
    expect(measurement.stolenCpuShare).toBeUndefined();
  });
});

describe('measureRow against two real servers', () => {
  const servers: Server[] = [];
  const hits: string[] = [];
  /** The most requests each server held at once. */
  const mostAtOnce = new Map<string, number>();
  let idle: ChildProcess;

  async function serve(name: string): Promise<string> {
    let inFlight = 0;
    const server = createServer((request, response) => {
      hits.push(name);
      inFlight += 1;
      mostAtOnce.set(name, Math.max(mostAtOnce.get(name) ?? 0, inFlight));
      request.resume();
      // Answered a little later, so that concurrent callers overlap.
      request.on('end', () => setTimeout(() => response.end('{}', () => (inFlight -= 1)), 2));
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  beforeAll(() => {
    // The process whose CPU the row reads: asleep, so the wait for it to go idle ends at once.
    idle = spawn('sleep', ['60'], { stdio: 'ignore' });
  });
  afterAll(async () => {
    idle.kill();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  /** Which server answered, in order, with repeats collapsed: A B A B means the windows alternated. */
  function turns(): string[] {
    return hits.filter((name, index) => index === 0 || hits[index - 1] !== name);
  }

  it.each([
    [1, ['A', 'B']],
    [3, ['A', 'B', 'A', 'B']],
  ])('with %i slice(s) the targets take turns %j and each gets every request of its windows counted', async (slices, expected) => {
    hits.length = 0;
    const urls = [await serve('A'), await serve('B')];
    const pid = idle.pid as number;
    const targets: Target[] = urls.map((url, index) => ({ id: index === 0 ? 'express' : 'relay', url, embeddingsUrl: undefined, headers: {}, pid }));
    const plan = (url: string): LoadPlan => ({ mode: 'non-stream', url, body: '{}', connections: 1, durationSeconds: 0.6, warmupSeconds: 0.2 });
    const [a, b] = await measureRow(targets.map((target) => ({ target, plan: plan(target.url) })), slices);
    expect(turns()).toEqual(expected);
    // Warm-up requests are not counted; every measured one is, and nothing failed.
    for (const [measurement, name] of [[a, 'A'], [b, 'B']] as const) {
      expect(measurement?.requests).toBeGreaterThan(0);
      expect(measurement?.requests).toBeLessThan(hits.filter((hit) => hit === name).length);
      expect(measurement?.errors).toBe(0);
    }
  }, 30_000);

  it('pre-warms each target once per workload, at 8 connections, whatever rows repeat it', async () => {
    hits.length = 0;
    mostAtOnce.clear();
    const [a, b] = [await serve('A'), await serve('B')];
    const pid = idle.pid as number;
    const target = (url: string, id: 'express' | 'relay'): Target => ({ id, url, embeddingsUrl: undefined, headers: {}, pid });
    const plan = (url: string, connections: number): LoadPlan => ({ mode: 'non-stream', url, body: '{}', connections, durationSeconds: 1, warmupSeconds: 1 });
    const started = Date.now();
    await prewarm(
      [
        { target: target(a as string, 'express'), plan: plan(a as string, 1) },
        { target: target(b as string, 'relay'), plan: plan(b as string, 1) },
        { target: target(a as string, 'express'), plan: plan(a as string, 32) },
      ],
      0.3,
    );
    expect(Date.now() - started).toBeLessThan(900); // two loads of 0.3 s, not three
    expect(turns()).toEqual(['A', 'B']);
    expect(mostAtOnce.get('A')).toBe(8);
    expect(mostAtOnce.get('B')).toBe(8);
  }, 30_000);
});
