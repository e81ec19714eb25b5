import { startTcpProxy } from '../../testing/tcp-proxy';

/**
 * Redis as the relays reach it, through a TCP proxy the test can break — without touching the
 * real service other tests share.
 */
export interface RedisFault {
  /** `redis://127.0.0.1:<proxy port>` for the relays. */
  url: string;
  /** Connections reset, new ones refused: Redis gone (process down, connection refused). */
  cut(): void;
  /** Connections reset, new ones accepted at once: a failover, or a proxy's idle cut. */
  reset(): void;
  /** Connections accepted and kept, nothing forwarded either way: Redis unreachable (a partition). */
  blackhole(): void;
  /** Forwarding again; what a blackhole held back flows on, as after a healed partition. */
  restore(): void;
  close(): Promise<void>;
}

/** A proxy in front of `redisUrl` (host and port; the relays' URL carries no credentials here). */
export async function openRedisFault(redisUrl: string): Promise<RedisFault> {
  const target = new URL(redisUrl);
  const proxy = await startTcpProxy(target.hostname || '127.0.0.1', Number(target.port || 6379));
  return {
    url: `redis://127.0.0.1:${proxy.port}`,
    cut: () => proxy.cut(),
    reset: () => proxy.reset(),
    blackhole: () => proxy.blackhole(),
    restore: () => proxy.restore(),
    close: () => proxy.close(),
  };
}
