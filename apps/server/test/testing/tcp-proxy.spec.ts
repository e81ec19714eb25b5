import net from 'node:net';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/** A client that collects what it receives and knows when it was closed. */
async function connectTo(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const state = { received: '', closed: false };
  socket.on('data', (chunk) => (state.received += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return { socket, state };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 2_000) throw new Error(`${what}: not within 2 s`);
    await sleep(10);
  }
}

describe('startTcpProxy', () => {
  let echo: net.Server;
  let proxy: TcpProxy;
  beforeEach(async () => {
    echo = net.createServer((socket) => socket.on('error', () => undefined).pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    proxy = await startTcpProxy('127.0.0.1', (echo.address() as net.AddressInfo).port);
  });
  afterEach(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it('forwards both ways', async () => {
    const { socket, state } = await connectTo(proxy.port);
    socket.write('hello');
    await until(() => state.received === 'hello', 'the echo');
    expect(proxy.connections).toBe(1);
    socket.destroy();
    await until(() => proxy.connections === 0, 'the pair dropped');
  });

  it('blackhole: nothing goes through, nothing is lost; restore delivers it in order', async () => {
    const { socket, state } = await connectTo(proxy.port);
    proxy.blackhole();
    socket.write('one ');
    socket.write('two');
    const late = await connectTo(proxy.port); // accepted, but silent too
    late.socket.write('three');
    await sleep(200);
    expect([state.received, late.state.received, state.closed]).toEqual(['', '', false]);
    proxy.restore();
    await until(() => state.received === 'one two' && late.state.received === 'three', 'delivery after restore');
    socket.destroy();
    late.socket.destroy();
  });

  it('cut: open connections are reset and new ones refused until restore', async () => {
    const { state } = await connectTo(proxy.port);
    proxy.cut();
    await until(() => state.closed, 'the open connection closed');
    expect(proxy.connections).toBe(0);
    const refused = await connectTo(proxy.port).then(
      async ({ state: s }) => {
        await until(() => s.closed, 'the new connection closed');
        return true;
      },
      () => true,
    );
    expect(refused).toBe(true);
    proxy.restore();
    const again = await connectTo(proxy.port);
    again.socket.write('back');
    await until(() => again.state.received === 'back', 'the echo after restore');
    again.socket.destroy();
  });

  it('reset: open connections are reset, new ones accepted at once; targetPorts names the connections to the target', async () => {
    const { state } = await connectTo(proxy.port);
    await until(() => proxy.targetPorts().length === 1, 'the target connection');
    const [targetPort] = proxy.targetPorts();
    expect(targetPort).toBeGreaterThan(0);
    proxy.reset();
    await until(() => state.closed, 'the open connection closed');
    const again = await connectTo(proxy.port);
    again.socket.write('still here');
    await until(() => again.state.received === 'still here', 'the echo right after the reset');
    expect(proxy.targetPorts()).not.toContain(targetPort);
    again.socket.destroy();
  });
});
