import net from 'node:net';

/** A loopback TCP proxy a test can take its target away through, without touching the target. */
export interface TcpProxy {
  port: number;
  /** Destroys every connection (RST) and refuses new ones, like a server that went away. */
  cut(): void;
  /**
   * Destroys every connection (RST) but goes on accepting new ones, like a load balancer's idle
   * cut or a failover: what was under way is lost, a reconnect works at once.
   */
  reset(): void;
  /**
   * Accepts connections but forwards nothing either way, like a network that drops packets:
   * what is sent waits in the socket buffers, and reaches the other side only after `restore`.
   */
  blackhole(): void;
  /** Forwards again (and accepts new connections again after `cut`). */
  restore(): void;
  /**
   * Once, on the first chunk a client sends that contains `text`: the connection is reset on the
   * client's side so it never hears the answer — after the chunk reached the target
   * (`deliver: true`, the statement runs unseen) or instead of it (`deliver: false`). Resolves
   * when it happened.
   */
  cutOn(text: string, options: { deliver: boolean }): Promise<void>;
  /** Connections open now (both sides up). */
  readonly connections: number;
  /** The local ports of the proxy's connections to the target (how the target sees them: `client_port`). */
  targetPorts(): number[];
  close(): Promise<void>;
}

type Mode = 'forward' | 'cut' | 'blackhole';

interface Pair {
  client: net.Socket;
  target: net.Socket;
  /** Sprung by `cutOn`: the target side ends on its own. */
  trapped?: boolean;
}

/**
 * Starts a proxy on 127.0.0.1 (port 0) to `targetHost:targetPort`. Each connection is forwarded
 * chunk by chunk (no `pipe`), so a blackhole can stop reading both sides at once and `restore`
 * resume them with nothing lost or reordered.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  const pairs = new Set<Pair>();
  let trap: { text: string; deliver: boolean; sprung: () => void } | undefined;

  /** The trap of `cutOn`, sprung by a chunk from `pair`'s client: true when the chunk was dealt with. */
  const springTrap = (pair: Pair, chunk: Buffer): boolean => {
    if (!trap || !chunk.includes(trap.text)) return false;
    const { deliver, sprung } = trap;
    trap = undefined;
    pair.trapped = true;
    pairs.delete(pair);
    // The target's answer must not reach the client; what is delivered goes before the FIN, so it runs.
    pair.target.removeAllListeners('data');
    pair.target.resume();
    if (deliver) pair.target.end(chunk);
    else pair.target.destroy();
    pair.client.resetAndDestroy();
    sprung();
    return true;
  };

  const forward = (from: net.Socket, to: net.Socket, pair?: Pair) => {
    from.on('data', (chunk: Buffer) => {
      if (pair && springTrap(pair, chunk)) return;
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
      if (!pair.trapped) target.destroy();
    };
    for (const socket of [client, target]) {
      socket.setNoDelay(true);
      socket.on('error', drop);
      socket.on('close', drop);
    }
    forward(client, target, pair);
    forward(target, client);
    if (mode === 'blackhole') pausePair(pair);
  });
  const resetAll = () => {
    for (const { client, target } of pairs) {
      client.resetAndDestroy();
      target.destroy();
    }
    pairs.clear();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    cut() {
      mode = 'cut';
      resetAll();
    },
    reset() {
      mode = 'forward';
      resetAll();
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
    cutOn: (text, { deliver }) => new Promise<void>((resolve) => (trap = { text, deliver, sprung: resolve })),
    targetPorts: () => [...pairs].flatMap(({ target }) => (target.localPort === undefined ? [] : [target.localPort])),
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
