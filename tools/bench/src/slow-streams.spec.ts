import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Target } from './load-runner';
import type { SlowStreamsTarget } from './report';
import { runSlowStreams, type SlowStreamsPlan } from './slow-streams';

/**
 * A stand-in upstream that answers every body at once with three chunks and `[DONE]`, except a
 * body asking for `broken`, which gets a 500: enough to see what the warm-up sends and checks
 * without the simulator's 10 s slow streams.
 */
describe('runSlowStreams', () => {
  let server: Server;
  let received: string[];
  let target: Target & { id: SlowStreamsTarget };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push(body);
        if (body.includes('broken')) {
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"upstream down"}}');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let index = 0; index < 3; index += 1) res.write(`data: {"index":${index}}\n\n`);
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // This process stands for the target's: its RSS is real, which is all the readings need.
    target = { id: 'express', url: `http://127.0.0.1:${port}/v1/chat/completions`, embeddingsUrl: undefined, headers: {}, pid: process.pid };
  });

  beforeEach(() => {
    received = [];
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const plan = (warmupBody: string): SlowStreamsPlan => ({
    streams: 4,
    body: '{"kind":"slow"}',
    expectedChunks: 3,
    warmup: { streams: 2, body: warmupBody },
    batch: 4,
    timeoutMs: 5000,
  });

  it('sends the warm-up streams before the slow ones and reports for the target it ran through', async () => {
    const result = await runSlowStreams(target, plan('{"kind":"fast"}'));
    expect(received).toEqual(['{"kind":"fast"}', '{"kind":"fast"}', ...Array.from({ length: 4 }, () => '{"kind":"slow"}')]);
    expect(result).toMatchObject({ target: 'express', warmupStreams: 2, requested: 4, completed: 4, failed: 0, firstFailure: undefined });
    expect(result.rssBeforeBytes).toBeGreaterThan(0);
  });

  it('fails with the reason when a warm-up stream does not come back whole, before any slow stream', async () => {
    await expect(runSlowStreams(target, plan('{"kind":"broken"}'))).rejects.toThrow(
      /^express: warm-up stream 1 of 2 failed: status 500, 0\/3 chunks, \[DONE\] missing: \{"error"/,
    );
    expect(received).toEqual(['{"kind":"broken"}']);
  });
});
