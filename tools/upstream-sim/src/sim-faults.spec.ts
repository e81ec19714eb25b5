import { ChatCompletionChunkSchema, ChatCompletionSchema, ErrorResponseSchema } from '@chat-relay/contract';
import { postChat, readAll, sseData } from './sim-test-client';
import { startUpstreamSim } from './sim-server';
import type { UpstreamSim } from './sim-types';
import { streamErrorEvent } from './write-chat-stream';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content }],
  ...extra,
});
const longText = 'alpha beta gamma delta epsilon zeta';

describe('status faults', () => {
  it.each([
    [429, 'rate_limit_error', 'rate_limit_exceeded', null],
    [400, 'invalid_request_error', null, 'messages'],
    [401, 'invalid_request_error', 'invalid_api_key', null],
    [503, 'server_error', null, null],
  ])('status:%i answers that status with an OpenAI error body', async (status, type, code, param) => {
    const response = await postChat(sim, chat('hi', { x_sim: { fault: `status:${status}` } }));
    expect(response.status).toBe(status);
    expect(ErrorResponseSchema.parse(await response.json()).error).toMatchObject({ type, code, param });
  });

  it('reads the fault from a marker in the last user message', async () => {
    const response = await postChat(sim, chat('hello [sim:fault=status:500]'));
    expect(response.status).toBe(500);
    expect(ErrorResponseSchema.parse(await response.json()).error.type).toBe('server_error');
  });

  it('answers 400 naming x_sim.fault for an unknown fault', async () => {
    const response = await postChat(sim, chat('hi', { x_sim: { fault: 'explode' } }));
    expect(response.status).toBe(400);
    expect(ErrorResponseSchema.parse(await response.json()).error.param).toBe('x_sim.fault');
  });
});

describe('failNext', () => {
  it('plays queued faults in order, `times` each, then answers normally; reset clears the queue', async () => {
    sim.failNext({ kind: 'status', status: 502 }, 2);
    sim.failNext({ kind: 'status', status: 429 });
    const statuses: number[] = [];
    for (let count = 0; count < 4; count += 1) {
      const response = await postChat(sim, chat('hi'));
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([502, 502, 429, 200]);
    sim.failNext({ kind: 'status', status: 500 });
    sim.reset();
    expect((await postChat(sim, chat('hi'))).status).toBe(200);
    expect(sim.requests).toHaveLength(1);
  });

  it('wins over x_sim', async () => {
    sim.failNext({ kind: 'status', status: 418 });
    const response = await postChat(sim, chat('hi', { x_sim: { fault: 'status:503' } }));
    expect(response.status).toBe(418);
  });
});

describe('timeout', () => {
  it('never sends headers; the client gives up and the sim keeps serving', async () => {
    sim.failNext({ kind: 'timeout' });
    const started = Date.now();
    let received: Response | undefined;
    let failure: unknown;
    try {
      received = await postChat(sim, chat('hi'), { signal: AbortSignal.timeout(200) });
    } catch (error) {
      failure = error;
    }
    expect(received).toBeUndefined();
    expect((failure as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(sim.requests).toHaveLength(1);
    expect((await postChat(sim, chat('after'))).status).toBe(200);
  });
});

describe('cut', () => {
  it('stream: role chunk and two content chunks, then the connection drops without [DONE]', async () => {
    const response = await postChat(sim, chat(longText, { stream: true, x_sim: { fault: 'cut' } }));
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    const data = sseData(text);
    expect(data).toHaveLength(3);
    expect(data).not.toContain('[DONE]');
    const chunks = data.map((payload) => ChatCompletionChunkSchema.parse(JSON.parse(payload)));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(['', 'You', ' said:']);
  });

  it('non-stream: headers and half the body, then the connection drops', async () => {
    sim.failNext({ kind: 'cut' });
    const response = await postChat(sim, chat(longText));
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    expect(text.startsWith('{"id":"chatcmpl-sim')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe('malformed', () => {
  it('non-stream: 200 with a body that is not JSON', async () => {
    const response = await postChat(sim, chat(longText, { x_sim: { fault: 'malformed' } }));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('stream: two good chunks, then a broken event, then the end', async () => {
    const response = await postChat(sim, chat(`${longText} [sim:fault=malformed]`, { stream: true }));
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    const data = sseData(text);
    expect(data).toHaveLength(3);
    data.slice(0, 2).forEach((payload) => expect(ChatCompletionChunkSchema.safeParse(JSON.parse(payload)).success).toBe(true));
    expect(data[2]).toBe('{not json');
  });
});

describe('stream-error', () => {
  it('stream: two good chunks, then an error event, no [DONE]', async () => {
    sim.failNext({ kind: 'stream-error' });
    const response = await postChat(sim, chat(longText, { stream: true }));
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    expect(text.endsWith(streamErrorEvent)).toBe(true);
    const data = sseData(text);
    expect(data).toHaveLength(3);
    expect(ErrorResponseSchema.parse(JSON.parse(data[2] ?? '')).error).toMatchObject({
      type: 'server_error',
      code: null,
    });
    expect(data).not.toContain('[DONE]');
  });

  it('non-stream: like status:500', async () => {
    const response = await postChat(sim, chat('hi', { x_sim: { fault: 'stream-error' } }));
    expect(response.status).toBe(500);
    expect(ErrorResponseSchema.parse(await response.json()).error.type).toBe('server_error');
  });
});

describe('latency', () => {
  it('spaces streamed chunks by latency_ms_per_token', async () => {
    const started = Date.now();
    const response = await postChat(sim, chat('a b c', { stream: true, x_sim: { latency_ms_per_token: 25 } }));
    const { text } = await readAll(response);
    // role, "You", " said:", " a", " b", " c", finish: six gaps of 25 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(sseData(text).at(-1)).toBe('[DONE]');
  });

  it('delays a non-streamed answer by completion tokens × latency ([sim:latency])', async () => {
    const started = Date.now();
    const response = await postChat(sim, chat('a b [sim:latency=30]'));
    const completion = ChatCompletionSchema.parse(await response.json());
    expect(completion.usage?.completion_tokens).toBe(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('clears the latency timer when the client goes away mid-stream', async () => {
    const slow = await startUpstreamSim({ latencyMsPerToken: 60_000 });
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    try {
      const controller = new AbortController();
      const response = await postChat(slow, chat(longText, { stream: true }), { signal: controller.signal });
      const first = await response.body?.getReader().read();
      expect(new TextDecoder().decode(first?.value)).toContain('"role":"assistant"');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const whileWaiting = timers();
      controller.abort();
      // Poll: other timers of the process come and go, the sim's one-minute timer must go.
      await waitUntil(() => timers() < whileWaiting);
      expect(timers()).toBeLessThan(whileWaiting);
      expect(slow.requests).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

async function waitUntil(condition: () => boolean, deadlineMs = 3000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}
