import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * Redis as the relays reach it, through a TCP proxy the test can break — without touching the
 * real service other tests share.
 */
export interface RedisFault {
  /** `redis://127.0.0.1:<proxy port>` for the relays. */
  url: string;
  /** Connections reset, new ones refused: Redis gone (process down, connection refused). */
  cut(): void;
  /** Connections accepted and kept, nothing forwarded either way: Redis unreachable (a partition). */
  blackhole(): void;
  /** Forwarding again; what a blackhole held back flows on, as after a healed partition. */
  restore(): void;
  close(): Promise<void>;
}

type Mode = 'pass' | 'cut' | 'blackhole';

interface Pair {
  incoming: Socket;
  outgoing: Socket | undefined;
}

export async function openRedisFault(redisUrl: string): Promise<RedisFault> {
  const target = new URL(redisUrl);
  const targetPort = Number(target.port || 6379);
  const targetHost = target.hostname || '127.0.0.1';
  let mode: Mode = 'pass';
  const pairs = new Set<Pair>();

  /** Forwards both ways; reading stops while blackholed (bytes wait, as TCP retransmits them once the partition heals). */
  const connectUpstream = (pair: Pair) => {
    const outgoing = net.connect(targetPort, targetHost);
    pair.outgoing = outgoing;
    outgoing.on('error', () => pair.incoming.destroy());
    outgoing.on('close', () => pair.incoming.destroy());
    pair.incoming.on('data', (chunk) => outgoing.write(chunk));
    outgoing.on('data', (chunk) => pair.incoming.write(chunk));
    pair.incoming.resume();
  };

  const server = net.createServer({ pauseOnConnect: true }, (incoming) => {
    if (mode === 'cut') {
      incoming.resetAndDestroy();
      return;
    }
    const pair: Pair = { incoming, outgoing: undefined };
    pairs.add(pair);
    incoming.on('error', () => undefined);
    incoming.on('close', () => {
      pair.outgoing?.destroy();
      pairs.delete(pair);
    });
    // Blackholed: accepted, then silence until restored (a client's connect timeout fires first).
    if (mode === 'pass') connectUpstream(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const resetAll = () => {
    for (const pair of pairs) {
      pair.incoming.resetAndDestroy();
      pair.outgoing?.destroy();
    }
    pairs.clear();
  };

  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () => {
      mode = 'cut';
      resetAll();
    },
    blackhole: () => {
      mode = 'blackhole';
      for (const pair of pairs) {
        pair.incoming.pause();
        pair.outgoing?.pause();
      }
    },
    restore: () => {
      mode = 'pass';
      for (const pair of pairs) {
        if (!pair.outgoing) connectUpstream(pair);
        pair.incoming.resume();
        pair.outgoing?.resume();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        resetAll();
        server.close(() => resolve());
      }),
  };
}
