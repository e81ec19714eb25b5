import { Pool } from 'undici';
import type { Target } from './load-runner';
import { readRssBytes, RssPeakSampler, waitUntilIdle } from './proc-stats';
import type { SlowStreamsResult } from './report';
import { growthPerItem } from './stats';
import { countStreamChunks, slowStreamMsPerToken } from './workloads';

export interface SlowStreamsPlan {
  streams: number;
  body: string;
  /** Chunks a complete stream carries (without `[DONE]`), counted once against the simulator. */
  expectedChunks: number;
  /** Streams started per step, a step every 50 ms: a burst, not a SYN flood. */
  batch: number;
  timeoutMs: number;
}

/**
 * Holds `plan.streams` slow streams through the relay at once (the simulator sends a token every
 * 100 ms) and counts those that arrive whole: status 200, every chunk, `[DONE]`. Reports the
 * relay's RSS before and at peak, per stream.
 */
export async function runSlowStreams(relay: Target, plan: SlowStreamsPlan): Promise<SlowStreamsResult> {
  const url = new URL(relay.url);
  const pool = new Pool(url.origin, {
    connections: plan.streams + 16,
    pipelining: 1,
    headersTimeout: plan.timeoutMs,
    bodyTimeout: plan.timeoutMs,
  });
  await waitUntilIdle(relay.pid);
  const rssBeforeBytes = readRssBytes(relay.pid);
  const sampler = new RssPeakSampler(relay.pid);
  let open = 0;
  let peakOpen = 0;
  let firstFailure: string | undefined;

  const one = async (): Promise<boolean> => {
    try {
      const response = await pool.request({
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...relay.headers },
        body: plan.body,
      });
      open += 1;
      peakOpen = Math.max(peakOpen, open);
      let text = '';
      try {
        for await (const chunk of response.body) text += (chunk as Buffer).toString('utf8');
      } finally {
        open -= 1;
      }
      const { chunks, done } = countStreamChunks(text);
      if (response.statusCode === 200 && done && chunks === plan.expectedChunks) return true;
      firstFailure ??=
        `status ${response.statusCode}, ${chunks}/${plan.expectedChunks} chunks, ` +
        `[DONE] ${done ? 'seen' : 'missing'}: ${text.slice(0, 200)}`;
      return false;
    } catch (error) {
      firstFailure ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return false;
    }
  };

  const started = performance.now();
  const running: Promise<boolean>[] = [];
  for (let index = 0; index < plan.streams; index += plan.batch) {
    const size = Math.min(plan.batch, plan.streams - index);
    for (let count = 0; count < size; count += 1) running.push(one());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const outcomes = await Promise.all(running);
  const seconds = (performance.now() - started) / 1000;
  const rssPeakBytes = sampler.stop();
  await pool.close();

  const completed = outcomes.filter(Boolean).length;
  return {
    requested: plan.streams,
    completed,
    failed: plan.streams - completed,
    peakOpen,
    msPerToken: slowStreamMsPerToken,
    chunksPerStream: plan.expectedChunks,
    seconds,
    rssBeforeBytes,
    rssPeakBytes,
    growthPerStreamBytes: growthPerItem(rssBeforeBytes, rssPeakBytes, plan.streams),
    firstFailure,
  };
}
