import net from 'node:net';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/** One streamed chat request over a raw socket; everything the relay sent, and whether it hung up. */
async function streamOverSocket(e2e: E2eRelayWithSim, connection: 'close' | 'keep-alive'): Promise<{ head: string; body: string; closedByRelay: boolean }> {
  const { port } = new URL(e2e.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hello there' }] });
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer ${e2e.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: ${connection}\r\n\r\n${body}`,
  );
  let received = '';
  socket.setEncoding('utf8').on('data', (piece: string) => (received += piece));
  // The relay closes the socket (end) or, kept alive, the last chunk arrives and nothing closes.
  const closedByRelay = await new Promise<boolean>((resolve) => {
    socket.once('end', () => resolve(true));
    const poll = setInterval(() => {
      if (received.endsWith('0\r\n\r\n')) {
        clearInterval(poll);
        setTimeout(() => resolve(false), 300);
      }
    }, 10);
    socket.once('end', () => clearInterval(poll));
  });
  socket.destroy();
  const split = received.indexOf('\r\n\r\n');
  return { head: received.slice(0, split).toLowerCase(), body: received.slice(split + 4), closedByRelay };
}

describe('issue 10 defect 12: Connection: close ignored on streamed answers', () => {
  let e2e: E2eRelayWithSim;
  beforeAll(async () => (e2e = await startRelayWithSim()));
  afterAll(() => e2e.close());

  it('answers a streamed request that asked for close with Connection: close and closes the socket after the stream', async () => {
    const answer = await streamOverSocket(e2e, 'close');
    expect(answer.head).toMatch(/^http\/1\.1 200/);
    expect(answer.head).toContain('content-type: text/event-stream');
    expect(answer.head).toContain('connection: close');
    expect(answer.head).not.toContain('keep-alive');
    expect(answer.body).toContain('data: [DONE]');
    expect(answer.closedByRelay).toBe(true);
  });

  it('keeps the connection open for a caller that did not ask to close', async () => {
    const answer = await streamOverSocket(e2e, 'keep-alive');
    expect(answer.head).toContain('connection: keep-alive');
    expect(answer.body).toContain('data: [DONE]');
    expect(answer.closedByRelay).toBe(false);
  });
});
