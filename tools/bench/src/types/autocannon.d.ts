// autocannon 8 ships no types; this is the part of its programmatic API the benchmark uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds; fractions allowed. */
      duration?: number;
      /** Stop after this many requests instead of after `duration`. */
      amount?: number;
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      pipelining?: number;
      /** ms between samples; a run stops on the first sample after `duration`, so keep it short. */
      sampleInt?: number;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }

    interface Result {
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** Whole milliseconds: too coarse for sub-millisecond latencies (see load-runner.ts). */
      latency: Histogram;
      requests: Histogram & { sent: number };
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      /** `responseTime` in fractional milliseconds, one event per response. */
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, responseBytes: number, responseTime: number) => void,
      ): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
