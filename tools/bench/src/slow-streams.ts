import { Pool } from 'undici';
import type { Target } from './load-runner';
import { readRssBytes, RssPeakSampler, waitUntilIdle } from './proc-stats';
import type { SlowStreamsResult, SlowStreamsTarget } from './report';
import { growthPerItem } from './stats';
import { countStreamChunks, slowStreamMsPerToken } from './workloads';

export interface SlowStreamsPlan {
  streams: number;
  body: string;
  /** Chunks a complete stream carries (without `[DONE]`), counted once against the simulator. */
  expectedChunks: number;
  /**
   * Fast streams sent one after the other before RSS is read: the same body without the
   * simulator's latency marker, so they carry `expectedChunks` too.
   */
  warmup: { streams: number; body: string };
  /** Streams started per step, a step every 50 ms: a burst, not a SYN flood. */
  batch: number;
  timeoutMs: number;
}

/** What became of one stream: undefined when it came back whole, else why not. */
type StreamOutcome = string | undefined;

/**
 * Holds `plan.streams` slow streams through a fresh target at once (the simulator sends a token
 * every 100 ms) and counts those that arrive whole: status 200, every chunk, `[DONE]`. Reports the
 * target's RSS before and at peak, per stream.
 */
export async function runSlowStreams(target: Target & { id: SlowStreamsTarget }, plan: SlowStreamsPlan): Promise<SlowStreamsResult> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, {
    connections: plan.streams + 16,
    pipelining: 1,
    headersTimeout: plan.timeoutMs,
    bodyTimeout: plan.timeoutMs,
  });
  let open = 0;
  let peakOpen = 0;

  const one = async (body: string, counted: boolean): Promise<StreamOutcome> => {
    try {
      const response = await pool.request({
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.headers },
        body,
      });
      if (counted) {
        open += 1;
        peakOpen = Math.max(peakOpen, open);
      }
      let text = '';
      try {
        for await (const chunk of response.body) text += (chunk as Buffer).toString('utf8');
      } finally {
        if (counted) open -= 1;
      }
      const { chunks, done } = countStreamChunks(text);
      if (response.statusCode === 200 && done && chunks === plan.expectedChunks) return undefined;
      return (
        `status ${response.statusCode}, ${chunks}/${plan.expectedChunks} chunks, ` +
        `[DONE] ${done ? 'seen' : 'missing'}: ${text.slice(0, 200)}`
      );
    } catch (error) {
      return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  };

  try {
    // A fresh process has never called its upstream: the first request compiles undici's llhttp
    // WebAssembly parser (~30 MB of RSS, much of it kept) and the hot paths are not yet JIT-compiled.
    // Those are one-time costs, not a stream's: fast streams pay them before "before" is read.
    for (let index = 0; index < plan.warmup.streams; index += 1) {
      const failure = await one(plan.warmup.body, false);
      if (failure !== undefined) {
        throw new Error(`${target.id}: warm-up stream ${index + 1} of ${plan.warmup.streams} failed: ${failure}`);
      }
    }
    await waitUntilIdle(target.pid);
    const rssBeforeBytes = readRssBytes(target.pid);
    const sampler = new RssPeakSampler(target.pid);

    const started = performance.now();
    const running: Promise<StreamOutcome>[] = [];
    for (let index = 0; index < plan.streams; index += plan.batch) {
      const size = Math.min(plan.batch, plan.streams - index);
      for (let count = 0; count < size; count += 1) running.push(one(plan.body, true));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const outcomes = await Promise.all(running);
    const seconds = (performance.now() - started) / 1000;
    const rssPeakBytes = sampler.stop();

    const failures = outcomes.filter((outcome): outcome is string => outcome !== undefined);
    return {
      target: target.id,
      warmupStreams: plan.warmup.streams,
      requested: plan.streams,
      completed: plan.streams - failures.length,
      failed: failures.length,
      peakOpen,
      msPerToken: slowStreamMsPerToken,
      chunksPerStream: plan.expectedChunks,
      seconds,
      rssBeforeBytes,
      rssPeakBytes,
      growthPerStreamBytes: growthPerItem(rssBeforeBytes, rssPeakBytes, plan.streams),
      firstFailure: failures[0],
    };
  } finally {
    await pool.close();
  }
}
