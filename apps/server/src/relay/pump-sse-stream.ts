import { createParser } from 'eventsource-parser';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import type { RelayError } from '../errors/relay-error';
import { upstreamError } from '../errors/relay-error';
import type { Logger } from '../logger';
import type { StreamTransformer } from '../providers/provider-adapter';
import type { RelayTrace } from './request-context';
import { SSE_DONE, sseData, sseError } from './sse';
import { transportFailure } from './transport-failure';

export interface PumpInput {
  /** The upstream body, its first piece already read (the stream is committed). */
  upstream: AsyncIterator<Buffer>;
  first: Buffer;
  transformer: StreamTransformer;
  trace: RelayTrace;
  signal: AbortSignal;
  logger: Logger;
  /** Called once with how the stream ended: undefined for a clean end. */
  onEnd(error: RelayError | undefined): void;
}

/**
 * Reads the upstream SSE body and writes the caller's stream: every upstream event is framed
 * and pushed at once; `[DONE]` at a clean end; a failure after the start becomes one error
 * event and the end (SPEC §7). Honours back-pressure from a slow client.
 */
export function pumpSseStream(input: PumpInput): Readable {
  let resume: (() => void) | undefined;
  const out = new Readable({
    read() {
      resume?.();
      resume = undefined;
    },
  });
  void run(input, out, (waiter) => (resume = waiter));
  return out;
}

async function run(input: PumpInput, out: Readable, setWaiter: (waiter: () => void) => void): Promise<void> {
  const { transformer, trace, signal } = input;
  const decoder = new TextDecoder();
  const events: Array<{ event?: string; data: string }> = [];
  const parser = createParser({ onEvent: ({ event, data }) => events.push(event ? { event, data } : { data }) });
  let ended = false;
  let failure: RelayError | undefined;

  const push = (frame: string): boolean => {
    trace.ttfbMs ??= performance.now() - trace.startedAt;
    return out.push(frame);
  };
  const fail = (error: RelayError) => {
    failure = error;
    ended = true;
    if (!signal.aborted) push(sseError(error.toBody().error));
  };

  try {
    for (let piece: Buffer | undefined = input.first; piece && !ended; ) {
      parser.feed(decoder.decode(piece, { stream: true }));
      let wantsMore = true;
      for (const event of events.splice(0)) {
        for (const step of transformer.transform(event)) {
          if (step.kind === 'chunk') wantsMore = push(sseData(step.json));
          else fail(step.error);
          if (ended) break;
        }
        if (ended) break;
      }
      if (ended) break;
      if (!wantsMore) await waitForDrain(setWaiter, signal);
      const next = await input.upstream.next();
      piece = next.done ? undefined : next.value;
    }
    if (!ended) {
      for (const step of transformer.finish()) {
        if (step.kind === 'chunk') push(sseData(step.json));
        else fail(step.error);
      }
    }
    if (!ended && !transformer.complete) {
      fail(upstreamError('The upstream provider ended the stream before it was complete.', 'stream_truncated'));
    }
  } catch (error) {
    fail(transportFailure(error).error);
  } finally {
    if (!failure) push(SSE_DONE);
    input.onEnd(failure);
    out.push(null);
    void input.upstream.return?.().catch(() => undefined);
  }
}

function waitForDrain(setWaiter: (waiter: () => void) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    setWaiter(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
