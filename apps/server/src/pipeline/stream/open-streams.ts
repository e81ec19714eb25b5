import { RelayError } from '@chat-relay/wire';

/**
 * The streamed answers under way, so a shutdown can end each one properly — an error event
 * and a clean end, usage recorded — rather than cut its connection. O(1) per stream.
 */
export class OpenStreams {
  private readonly enders = new Set<() => void>();

  /** `end` is called once if the relay stops before the stream does; the result forgets it. */
  add(end: () => void): () => void {
    this.enders.add(end);
    return () => this.enders.delete(end);
  }

  get size(): number {
    return this.enders.size;
  }

  /** Ends every open stream; returns how many there were. */
  endAll(): number {
    const enders = [...this.enders];
    this.enders.clear();
    for (const end of enders) end();
    return enders.length;
  }
}

export const serverShuttingDown = () =>
  new RelayError({
    status: 503,
    type: 'server_error',
    code: 'server_shutting_down',
    message: 'The relay is shutting down; retry the request.',
  });
