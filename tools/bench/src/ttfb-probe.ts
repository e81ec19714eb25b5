import { Client } from 'undici';
import type { Target } from './load-runner';
import type { TtfbMeasurement } from './report';
import { latencyPercentiles } from './stats';

/** One stream request: ms from sending it to the first body chunk, and whether it came back whole. */
async function timeFirstChunk(client: Client, path: string, target: Target, body: string): Promise<number | undefined> {
  const started = performance.now();
  const response = await client.request({
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body,
  });
  let firstChunkAt: number | undefined;
  for await (const _chunk of response.body) firstChunkAt ??= performance.now();
  if (response.statusCode !== 200 || firstChunkAt === undefined) return undefined;
  return firstChunkAt - started;
}

/**
 * Time to first byte of a stream, which autocannon cannot see: `requests` sequential stream
 * requests on one keep-alive connection (after a few unmeasured ones), p50 and p99 of the time
 * until the first body chunk arrives — headers alone do not count.
 */
export async function probeTimeToFirstByte(target: Target, body: string, requests: number): Promise<TtfbMeasurement> {
  const url = new URL(target.url);
  const client = new Client(url.origin, { pipelining: 1 });
  const samples: number[] = [];
  let failures = 0;
  try {
    const warmup = Math.min(20, Math.ceil(requests / 10));
    for (let index = 0; index < warmup + requests; index += 1) {
      const ttfb = await timeFirstChunk(client, url.pathname, target, body).catch(() => undefined);
      if (index < warmup) continue;
      if (ttfb === undefined) failures += 1;
      else samples.push(ttfb);
    }
  } finally {
    await client.close();
  }
  const { p50, p99 } = latencyPercentiles(samples);
  return { target: target.id, samples: samples.length, failures, p50Ms: p50, p99Ms: p99 };
}
