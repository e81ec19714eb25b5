import net, { type AddressInfo, type Socket } from 'node:net';

export interface TappedConnection {
  openedAt: number;
  closedAt: number | undefined;
  /** Resolves when the caller's side of the connection has closed. */
  closed: Promise<void>;
}

/**
 * A TCP pass-through in front of a server, recording when each connection opens and closes —
 * how a test sees that the relay really dropped its upstream request.
 */
export interface TcpTap {
  port: number;
  connections: TappedConnection[];
  close(): Promise<void>;
}

export async function startTcpTap(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpTap> {
  const connections: TappedConnection[] = [];
  const sockets = new Set<Socket>();
  const server = net.createServer((incoming) => {
    const outgoing = net.connect(targetPort, targetHost);
    sockets.add(incoming).add(outgoing);
    let markClosed: () => void = () => undefined;
    const connection: TappedConnection = {
      openedAt: Date.now(),
      closedAt: undefined,
      closed: new Promise((resolve) => (markClosed = resolve)),
    };
    connections.push(connection);
    incoming.pipe(outgoing).pipe(incoming);
    incoming.on('error', () => outgoing.destroy());
    outgoing.on('error', () => incoming.destroy());
    incoming.on('close', () => {
      connection.closedAt = Date.now();
      markClosed();
      outgoing.destroy();
      sockets.delete(incoming);
    });
    outgoing.on('close', () => {
      incoming.destroy();
      sockets.delete(outgoing);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
