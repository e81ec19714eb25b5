import { RelayError } from '@chat-relay/wire';

/**
 * The streamed answers under way, so a shutdown can end each one properly — an error event
 * and a clean end, usage recorded — rather than cut its connection. O(1) per stream.
 */
export class OpenStreams {
  private readonly streams = new Set<OpenStream>();

  /** `stream.shutDown()` is called once if the relay stops before the stream ends (and deletes it). */
  add(stream: OpenStream): void {
    this.streams.add(stream);
  }

  delete(stream: OpenStream): void {
    this.streams.delete(stream);
  }

  get size(): number {
    return this.streams.size;
  }

  /** Ends every open stream; returns how many there were. */
  endAll(): number {
    const streams = [...this.streams];
    this.streams.clear();
    for (const stream of streams) stream.shutDown();
    return streams.length;
  }
}

/** A streamed answer under way: ended properly (an error event, a clean end, its usage recorded) when the relay stops. */
export interface OpenStream {
  shutDown(): void;
}

export const serverShuttingDown = () =>
  new RelayError({
    status: 503,
    type: 'server_error',
    code: 'server_shutting_down',
    message: 'The relay is shutting down; retry the request.',
  });
