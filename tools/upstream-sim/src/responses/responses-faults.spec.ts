import { ErrorResponseSchema, ResponseObjectSchema } from '@chat-relay/contract';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, parseSse, postResponses, readAll } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { warmSpecChecker, expectSpecValid, specValidEvents } from './testing/openai-spec-check';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim();
}, 30_000);
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const ask = (input: string, extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o', input, ...extra });
const longText = 'alpha beta gamma delta epsilon zeta';

describe('Responses faults', () => {
  it('status faults answer OpenAI error bodies: marker, x_sim and failNext (which wins)', async () => {
    const marker = await postResponses(sim, ask('hello [sim:fault=status:429]'));
    expect(marker.status).toBe(429);
    expect(ErrorResponseSchema.parse(await marker.json()).error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    const body = await postResponses(sim, ask('hello', { x_sim: { fault: 'status:503' } }));
    expect(body.status).toBe(503);
    await body.text();
    sim.failNext({ kind: 'status', status: 500 });
    const queued = await postResponses(sim, ask('hello', { x_sim: { fault: 'status:503' } }));
    expect(queued.status).toBe(500);
    const error: unknown = await queued.json();
    expectSpecValid('ErrorResponse', error);
    expect((await postResponses(sim, ask('hello'))).status).toBe(200);
  });

  it('an unknown fault marker is a 400 naming input', async () => {
    const response = await postResponses(sim, ask('hi [sim:fault=explode]'));
    expect(response.status).toBe(400);
    expect(ErrorResponseSchema.parse(await response.json()).error.param).toBe('input');
  });

  it('stream-error: an error event then response.failed (spec-valid), after created and in_progress', async () => {
    const response = await postResponses(sim, ask(`${longText} [sim:fault=stream-error]`, { stream: true }));
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    const events = specValidEvents(text);
    expect(events.map((event) => event.data.type)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(events.map((event) => event.data.sequence_number)).toEqual([0, 1, 2, 3]);
    // Both the OpenAPI fields and the `error` object the API actually sends.
    expect(events[2]?.data).toMatchObject({ code: 'server_error', param: null, error: { type: 'server_error', code: 'server_error' } });
    const failed = ResponseObjectSchema.parse(events[3]?.data['response']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'server_error' }, output: [] });
    // The failed response is what stays stored.
    const stored = await callOpenAi(sim, 'GET', `/responses/${failed.id}`);
    expect(ResponseObjectSchema.parse(await stored.json()).status).toBe('failed');
  });

  it('stream-error unstreamed: a 500 OpenAI error', async () => {
    sim.failNext({ kind: 'stream-error' });
    const response = await postResponses(sim, ask('hi'));
    expect(response.status).toBe(500);
    expect(ErrorResponseSchema.parse(await response.json()).error.type).toBe('server_error');
  });

  it('cut: the stream stops after the first text delta, without a terminal event, and the read fails', async () => {
    sim.failNext({ kind: 'cut' });
    const response = await postResponses(sim, ask(longText, { stream: true }));
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    const types = parseSse(text).map((event) => event.event);
    expect(types).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta']);
  });

  it('cut unstreamed: half a body, then the connection drops', async () => {
    const response = await postResponses(sim, ask(longText, { x_sim: { fault: 'cut' } }));
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    expect(text.startsWith('{"id":"resp_')).toBe(true);
  });

  it('malformed: a delta event whose data is not JSON ends the stream; unstreamed, half a body', async () => {
    const streamed = await postResponses(sim, ask(`${longText} [sim:fault=malformed]`, { stream: true }));
    const { text } = await readAll(streamed);
    const events = parseSse(text);
    expect(events.at(-1)).toMatchObject({ event: 'response.output_text.delta', data: '{not json' });
    expect(events.slice(0, -1).every((event) => JSON.parse(event.data).type === event.event)).toBe(true);
    const plain = await postResponses(sim, ask(longText, { x_sim: { fault: 'malformed' } }));
    await expect(plain.json()).rejects.toThrow();
  });

  it('timeout: no answer at all; the client gives up and the sim keeps serving', async () => {
    sim.failNext({ kind: 'timeout' });
    await expect(postResponses(sim, ask('hi'), { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect((await postResponses(sim, ask('hi'))).status).toBe(200);
  });

  it('latency: streamed events come latencyMsPerToken apart', async () => {
    const started = Date.now();
    const response = await postResponses(sim, ask('one two [sim:latency=20]', { stream: true }));
    const { text } = await readAll(response);
    const count = parseSse(text).length;
    expect(Date.now() - started).toBeGreaterThanOrEqual(20 * (count - 2));
  });
});
