import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeEventStream, type FramedStream, type StreamOptions } from './write-event-stream';

const frames = ['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: {"n":3}\n\n'];
const stream: FramedStream = {
  frames,
  goodFramesBeforeFault: () => 1,
  endFrame: 'data: [DONE]\n\n',
  malformedFrame: 'data: {not json\n\n',
  errorFrame: 'data: {"error":{}}\n\n',
};

/** The body pieces the response was given (`write` and `end`), and what a real client read. */
async function play(options: StreamOptions): Promise<{ calls: string[]; body: string; chunked: boolean }> {
  const calls: string[] = [];
  const server: Server = createServer((_req, res: ServerResponse) => {
    const write = res.write.bind(res) as (chunk: string, callback?: (error?: Error | null) => void) => boolean;
    const end = res.end.bind(res) as (chunk?: string) => ServerResponse;
    res.write = ((chunk: string, callback?: (error?: Error | null) => void) => {
      calls.push(`write ${chunk}`);
      return write(chunk, callback);
    }) as ServerResponse['write'];
    res.end = ((chunk?: string) => {
      calls.push(`end ${chunk ?? ''}`);
      return end(chunk);
    }) as ServerResponse['end'];
    void writeEventStream(res, stream, options);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    const body = await response.text();
    return { calls, body, chunked: response.headers.get('transfer-encoding') === 'chunked' };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('writeEventStream', () => {
  it('writes a stream without latency or fault in one piece after the head, still chunked', async () => {
    const { calls, body, chunked } = await play({ latencyMsPerToken: 0, fault: undefined });
    expect(calls).toEqual([`end ${frames.join('')}data: [DONE]\n\n`]);
    expect(body).toBe(`${frames.join('')}data: [DONE]\n\n`);
    expect(chunked).toBe(true);
  });

  it('writes each frame on its own when tokens have a latency', async () => {
    const { calls, body } = await play({ latencyMsPerToken: 1, fault: undefined });
    expect(calls).toEqual([...frames.map((frame) => `write ${frame}`), 'end data: [DONE]\n\n']);
    expect(body).toBe(`${frames.join('')}data: [DONE]\n\n`);
  });

  it('plays a fault after its good frames, frame by frame, even without latency', async () => {
    const { calls, body } = await play({ latencyMsPerToken: 0, fault: { kind: 'malformed' } });
    expect(calls).toEqual([`write ${frames[0]}`, 'end data: {not json\n\n']);
    expect(body).toBe(`${frames[0]}data: {not json\n\n`);
  });
});
