import net from 'node:net';

/** A loopback TCP proxy a test can take its target away through, without touching the target. */
export interface TcpProxy {
  port: number;
  /** Destroys every connection (RST) and refuses new ones, like a server that went away. */
  cut(): void;
  /**
   * Accepts connections but forwards nothing either way, like a network that drops packets:
   * what is sent waits in the socket buffers, and reaches the other side only after `restore`.
   */
  blackhole(): void;
  /** Forwards again (and accepts new connections again after `cut`). */
  restore(): void;
  /** Connections open now (both sides up). */
  readonly connections: number;
  close(): Promise<void>;
}

type Mode = 'forward' | 'cut' | 'blackhole';

interface Pair {
  client: net.Socket;
  target: net.Socket;
}

/**
 * Starts a proxy on 127.0.0.1 (port 0) to `targetHost:targetPort`. Each connection is forwarded
 * chunk by chunk (no `pipe`), so a blackhole can stop reading both sides at once and `restore`
 * resume them with nothing lost or reordered.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  const pairs = new Set<Pair>();

  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => mode === 'forward' && from.resume());
      }
    });
  };

  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const target = net.connect(targetPort, targetHost);
    const pair: Pair = { client, target };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      target.destroy();
    };
    for (const socket of [client, target]) {
      socket.setNoDelay(true);
      socket.on('error', drop);
      socket.on('close', drop);
    }
    forward(client, target);
    forward(target, client);
    if (mode === 'blackhole') pausePair(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    cut() {
      mode = 'cut';
      for (const { client, target } of pairs) {
        client.resetAndDestroy();
        target.destroy();
      }
      pairs.clear();
    },
    blackhole() {
      mode = 'blackhole';
      for (const pair of pairs) pausePair(pair);
    },
    restore() {
      mode = 'forward';
      for (const { client, target } of pairs) {
        client.resume();
        target.resume();
      }
    },
    get connections() {
      return pairs.size;
    },
    close: async () => {
      mode = 'cut';
      for (const { client, target } of pairs) {
        client.destroy();
        target.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function pausePair({ client, target }: Pair): void {
  client.pause();
  target.pause();
}
