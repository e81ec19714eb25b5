import { parseSse, postGemini, readAll } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { GenerateContentResponse } from './gemini-api';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const longText = 'alpha beta gamma delta epsilon zeta';
const ask = (text: string, extra: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text }] }], ...extra });

async function errorOf(response: Response): Promise<{ status: number; code: number; googleStatus: string }> {
  const body = (await response.json()) as { error: { code: number; status: string; message: string } };
  expect(body.error.message.length).toBeGreaterThan(0);
  return { status: response.status, code: body.error.code, googleStatus: body.error.status };
}

describe('status faults in the Google error shape', () => {
  it.each([
    [429, 'RESOURCE_EXHAUSTED'],
    [503, 'UNAVAILABLE'],
    [500, 'INTERNAL'],
    [400, 'INVALID_ARGUMENT'],
    [403, 'PERMISSION_DENIED'],
    [504, 'DEADLINE_EXCEEDED'],
  ])('status:%i → %s', async (status, googleStatus) => {
    const response = await postGemini(sim, ask('hi', { x_sim: { fault: `status:${status}` } }));
    expect(await errorOf(response)).toEqual({ status, code: status, googleStatus });
  });

  it('reads a [sim:fault] marker in the last user text part, streamed or not', async () => {
    expect(await errorOf(await postGemini(sim, ask('hello [sim:fault=status:429]')))).toMatchObject({ googleStatus: 'RESOURCE_EXHAUSTED' });
    const streamed = await postGemini(sim, ask('hello [sim:fault=status:503]'), { stream: true });
    expect(await errorOf(streamed)).toMatchObject({ status: 503, googleStatus: 'UNAVAILABLE' });
  });

  it('plays failNext faults, shared with the other formats, in order', async () => {
    sim.failNext({ kind: 'status', status: 429 }, 2);
    const statuses: number[] = [];
    for (let count = 0; count < 3; count += 1) {
      const response = await postGemini(sim, ask('hi'));
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([429, 429, 200]);
  });

  it('answers 400 INVALID_ARGUMENT for an unknown marker fault', async () => {
    const response = await postGemini(sim, ask('hi [sim:fault=explode]'));
    expect(await errorOf(response)).toEqual({ status: 400, code: 400, googleStatus: 'INVALID_ARGUMENT' });
  });
});

describe('stream faults', () => {
  it('cut: the first event, then the connection drops without a finishReason', async () => {
    const response = await postGemini(sim, ask(`${longText} [sim:fault=cut]`), { stream: true });
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    const events = parseSse(text).map((event) => JSON.parse(event.data) as GenerateContentResponse);
    expect(events).toHaveLength(1);
    expect(events[0]?.candidates[0]?.finishReason).toBeUndefined();
  });

  it('stream-error: the first event, then an {error} data event with UNAVAILABLE, then the end', async () => {
    sim.failNext({ kind: 'stream-error' });
    const response = await postGemini(sim, ask(longText), { stream: true });
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    const events = parseSse(text);
    expect(events).toHaveLength(2);
    expect(events.every((event) => event.event === undefined)).toBe(true);
    expect(JSON.parse(events[1]!.data)).toEqual({
      error: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
    });
  });

  it('stream-error without streaming answers 503 UNAVAILABLE', async () => {
    const response = await postGemini(sim, ask('hi', { x_sim: { fault: 'stream-error' } }));
    expect(await errorOf(response)).toEqual({ status: 503, code: 503, googleStatus: 'UNAVAILABLE' });
  });

  it('malformed: not JSON, streamed (a broken event) and not (half a body)', async () => {
    const streamed = await readAll(await postGemini(sim, ask(`${longText} [sim:fault=malformed]`), { stream: true }));
    expect(parseSse(streamed.text).map((event) => event.data).at(-1)).toBe('{not json');
    const whole = await postGemini(sim, ask(`${longText} [sim:fault=malformed]`));
    expect(whole.status).toBe(200);
    const text = await whole.text();
    expect(text.startsWith('{"candidates"')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('latency: spaces streamed events by latency_ms_per_token', async () => {
    const started = Date.now();
    const response = await postGemini(sim, ask('a b c d e f g', { x_sim: { latency_ms_per_token: 30 } }), { stream: true });
    const { text } = await readAll(response);
    // Four events: three gaps of 30 ms.
    expect(parseSse(text)).toHaveLength(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(85);
  });
});
