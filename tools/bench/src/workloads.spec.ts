import { parseBenchOptions } from './cli-options';
import {
  buildConversation,
  buildEmbeddingInputs,
  buildWorkloads,
  countStreamChunks,
  embeddingInputChars,
  embeddingInputCount,
} from './workloads';

describe('workloads', () => {
  it('builds a conversation of about 64 KiB that alternates turns and ends with the user', () => {
    const body = JSON.parse(buildConversation(64 * 1024)) as { messages: { role: string }[] };
    const size = buildConversation(64 * 1024).length;
    expect(size).toBeGreaterThan(63 * 1024);
    expect(size).toBeLessThan(66 * 1024);
    expect(body.messages.at(-1)?.role).toBe('user');
    body.messages.forEach((message, index) => expect(message.role).toBe(index % 2 === 0 ? 'user' : 'assistant'));
  });

  it('sends the same small message streamed and not', () => {
    const workloads = buildWorkloads();
    expect(JSON.parse(workloads.stream.body)).toEqual({ ...JSON.parse(workloads['non-stream'].body), stream: true });
  });

  it('cuts 16 distinct passages of up to 200 characters at word boundaries for the embeddings mode', () => {
    const inputs = buildEmbeddingInputs(embeddingInputCount, embeddingInputChars);
    expect(inputs).toHaveLength(16);
    expect(new Set(inputs).size).toBe(16);
    for (const input of inputs) {
      expect(input.length).toBeLessThanOrEqual(200);
      expect(input.length).toBeGreaterThan(180);
      expect(input).toMatch(/^\S.*\S$/);
    }
  });

  it('asks the embeddings endpoint for float vectors of text-embedding-3-small, and the chat endpoint for the rest', () => {
    const workloads = buildWorkloads();
    expect(JSON.parse(workloads.embeddings.body)).toEqual({
      model: 'text-embedding-3-small',
      input: buildEmbeddingInputs(16, 200),
      encoding_format: 'float',
    });
    expect(Object.values(workloads).map((workload) => [workload.mode, workload.endpoint])).toEqual([
      ['non-stream', 'chat'],
      ['stream', 'chat'],
      ['64k', 'chat'],
      ['embeddings', 'embeddings'],
    ]);
  });

  it('counts SSE chunks without [DONE], across CRLF framing and multi-line data', () => {
    expect(countStreamChunks('data: {"a":1}\n\ndata: {"b":2}\r\n\r\ndata: [DONE]\n\n')).toEqual({ chunks: 2, done: true });
    expect(countStreamChunks(': comment\n\nevent: x\ndata: {"a":\ndata: 1}\n\n')).toEqual({ chunks: 1, done: false });
  });
});

describe('parseBenchOptions', () => {
  it('has a full default run and a quick one', () => {
    expect(parseBenchOptions([])).toMatchObject({ durationSeconds: 5, slowStreams: 2000, json: false, peers: false });
    expect(parseBenchOptions(['--quick', '--json'])).toMatchObject({ durationSeconds: 1, slowStreams: 200, json: true });
  });

  it('reads values and refuses what it does not know', () => {
    expect(parseBenchOptions(['--duration=2.5', '--slow-streams=0', '--peers'])).toMatchObject({
      durationSeconds: 2.5,
      slowStreams: 0,
      peers: true,
    });
    expect(() => parseBenchOptions(['--duration=0'])).toThrow('--duration=0');
    expect(() => parseBenchOptions(['--fast'])).toThrow('unknown argument --fast');
  });

  it('takes a profile directory for --cpu-prof and a file or directory to summarise alone', () => {
    expect(parseBenchOptions(['--cpu-prof']).cpuProfileDir).toBe('tmp/bench-profiles');
    expect(parseBenchOptions(['--cpu-prof=/tmp/p']).cpuProfileDir).toBe('/tmp/p');
    expect(parseBenchOptions(['--summarize-profile=/tmp/p/x.cpuprofile', '--json'])).toMatchObject({
      summarizeProfile: '/tmp/p/x.cpuprofile',
      json: true,
    });
    expect(() => parseBenchOptions(['--summarize-profile'])).toThrow('--summarize-profile=<file|dir>');
  });
});
