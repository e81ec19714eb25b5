import { performance } from 'node:perf_hooks';
import { Stream } from 'node:stream';
import type { RelayError } from '@chat-relay/wire';
import type { Logger } from '../../logger';
import type { AbortLike } from '../../core/caller-gone';
import { serverShuttingDown, type OpenStreams } from './open-streams';
import type { RelayTrace } from '../request-context';
import { drained } from './pump-sse-stream';
import { clientClosed, transportFailure } from '../../channels/upstream/transport-failure';

export interface BytePumpInput {
  /** The upstream body, its first piece already read (the answer is committed). */
  upstream: AsyncIterator<Buffer>;
  first: Buffer;
  trace: RelayTrace;
  signal: AbortLike;
  /** Called once: undefined for a clean end, else why the bytes stopped. */
  onEnd(error: RelayError | undefined): void;
  openStreams?: OpenStreams;
  logger: Logger;
}

type Destination = NodeJS.WritableStream & { destroy?(error?: Error): void };

/**
 * A binary answer (speech audio) passed through as the upstream sends it — never buffered
 * whole — in the form ts-rest pipes into the response. Bytes have no error event: a failure
 * after the start cuts the response (the caller sees a broken transfer, not a shorter file).
 */
export class ByteBody extends Stream {
  private started = false;

  constructor(private readonly input: BytePumpInput) {
    super();
  }

  override pipe<T extends Destination>(destination: T): T {
    if (this.started) throw new Error('a byte body can be piped once');
    this.started = true;
    void run(this.input, destination);
    return destination;
  }
}

async function run(input: BytePumpInput, destination: Destination): Promise<void> {
  const { trace, signal } = input;
  let failure: RelayError | undefined;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    input.openStreams?.delete(open);
    try {
      input.onEnd(failure);
    } catch (error) {
      input.logger.error({ requestId: trace.requestId, err: error }, 'accounting at the end of a byte stream failed');
    }
    if (failure && !signal.aborted) destination.destroy?.(new Error(failure.message));
    else destination.end();
    void input.upstream.return?.().catch(() => undefined);
  };
  const open = {
    shutDown: () => {
      failure ??= serverShuttingDown();
      finish();
    },
  };
  input.openStreams?.add(open);
  try {
    for (let piece: Buffer | undefined = input.first; piece && !finished && !signal.aborted; ) {
      trace.ttfbMs ??= performance.now() - trace.startedAt;
      if (!destination.write(piece)) await drained(destination, signal);
      const next = await input.upstream.next();
      piece = next.done ? undefined : next.value;
    }
    if (signal.aborted) failure ??= clientClosed();
  } catch (error) {
    failure ??= transportFailure(error).error;
  } finally {
    finish();
  }
}
