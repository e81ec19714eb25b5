import { parseSse, postAnthropic, readAll } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const longText = 'alpha beta gamma delta epsilon zeta';
const ask = (content: unknown, extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [{ role: 'user', content }],
  ...extra,
});

async function errorOf(response: Response): Promise<{ status: number; type: string; errorType: string }> {
  const body = (await response.json()) as { type: string; error: { type: string; message: string } };
  expect(body.error.message.length).toBeGreaterThan(0);
  return { status: response.status, type: body.type, errorType: body.error.type };
}

describe('status faults in the Anthropic error shape', () => {
  it.each([
    [529, 'overloaded_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [401, 'authentication_error'],
    [400, 'invalid_request_error'],
  ])('status:%i → %s', async (status, errorType) => {
    const response = await postAnthropic(sim, ask('hi', { x_sim: { fault: `status:${status}` } }));
    expect(await errorOf(response)).toEqual({ status, type: 'error', errorType });
  });

  it('reads a [sim:fault] marker in the last user text block', async () => {
    const response = await postAnthropic(sim, ask([{ type: 'text', text: 'hello [sim:fault=status:529]' }]));
    expect(await errorOf(response)).toEqual({ status: 529, type: 'error', errorType: 'overloaded_error' });
  });

  it('plays failNext faults in order before answering', async () => {
    sim.failNext({ kind: 'status', status: 529 });
    sim.failNext({ kind: 'status', status: 429 });
    const statuses: number[] = [];
    for (let count = 0; count < 3; count += 1) {
      const response = await postAnthropic(sim, ask('hi'));
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([529, 429, 200]);
  });

  it('answers 400 invalid_request_error for an unknown fault, and consumes no queued fault on a 400', async () => {
    sim.failNext({ kind: 'status', status: 503 });
    const response = await postAnthropic(sim, ask('hi', { x_sim: { fault: 'explode' } }));
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(response.status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('x_sim.fault') });
    expect((await postAnthropic(sim, ask('hi'))).status).toBe(503);
  });
});

describe('stream faults', () => {
  it('cut: message_start, block start, ping and one delta, then the connection drops', async () => {
    const response = await postAnthropic(sim, ask(`${longText} [sim:fault=cut]`, { stream: true }));
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    expect(parseSse(text).map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta']);
  });

  it('stream-error: the good events, then `event: error` with overloaded_error and no message_stop', async () => {
    sim.failNext({ kind: 'stream-error' });
    const response = await postAnthropic(sim, ask(longText, { stream: true }));
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    const events = parseSse(text);
    expect(events.map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'error']);
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('stream-error without streaming answers 529 overloaded_error', async () => {
    const response = await postAnthropic(sim, ask('hi', { x_sim: { fault: 'stream-error' } }));
    expect(await errorOf(response)).toEqual({ status: 529, type: 'error', errorType: 'overloaded_error' });
  });

  it('malformed: a named event whose data is not JSON ends the stream', async () => {
    const response = await postAnthropic(sim, ask(longText, { stream: true, x_sim: { fault: 'malformed' } }));
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    const events = parseSse(text);
    expect(events).toHaveLength(5);
    expect(events.at(-1)).toMatchObject({ event: 'content_block_delta', data: '{not json' });
  });

  it('cut without streaming: half a JSON message, then the connection drops', async () => {
    sim.failNext({ kind: 'cut' });
    const response = await postAnthropic(sim, ask(longText));
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    expect(text.startsWith('{"id":"msg_sim')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('timeout: no answer until the client gives up', async () => {
    sim.failNext({ kind: 'timeout' });
    await expect(postAnthropic(sim, ask('hi'), { signal: AbortSignal.timeout(150) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect((await postAnthropic(sim, ask('after'))).status).toBe(200);
  });
});
