import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorResponseSchema, ResponseInputItemListSchema, ResponseObjectSchema, type ResponseObject } from '@chat-relay/contract';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, postResponses, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { warmSpecChecker, expectSpecValid } from './testing/openai-spec-check';

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
}, 30_000);
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function create(body: Record<string, unknown>): Promise<ResponseObject> {
  const response = await postResponses(sim, body);
  expect(response.status).toBe(200);
  const json: unknown = await response.json();
  expectSpecValid('Response', json);
  return ResponseObjectSchema.parse(json);
}

async function getJson(method: string, path: string, status = 200): Promise<unknown> {
  const response = await callOpenAi(sim, method, path);
  expect({ path, status: response.status }).toEqual({ path, status });
  return response.json();
}

function textOf(response: ResponseObject): string {
  return response.output.flatMap((item) => ('content' in item && Array.isArray(item.content) ? item.content : [])).map((part) => String(part.text)).join('');
}

describe('stored responses and previous_response_id', () => {
  it('continues a stored conversation like the recorded chain: question → call → output → answer', async () => {
    const first = await create({ model: 'gpt-4.1', input: [{ role: 'user', content: 'Say hi' }], tools: [weatherTool], tool_choice: 'none' });
    expect(textOf(first)).toBe('You said: Say hi');
    const second = await create({
      model: 'gpt-4.1',
      input: [{ role: 'user', content: "What's the weather in New York?" }],
      tools: [weatherTool],
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    const call = second.output[0] as { type: string; call_id: string; name: string };
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
    const third = await create({
      model: 'gpt-4.1',
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 72F' }],
      tools: [weatherTool],
      previous_response_id: second.id,
    });
    expect(textOf(third)).toBe('Here is what I found: get_weather: Sunny, 72F.');
    // The whole stored conversation is the prompt: it grows with every turn.
    expect(third.usage?.input_tokens).toBeGreaterThan(second.usage?.input_tokens ?? Infinity);
    expect(second.usage?.input_tokens).toBeGreaterThan(first.usage?.input_tokens ?? Infinity);
  });

  it('does not carry instructions over from the previous response', async () => {
    const first = await create({ model: 'gpt-4o', input: 'hi', instructions: 'A long system prompt of many words here' });
    const next = await create({ model: 'gpt-4o', input: 'hi', previous_response_id: first.id });
    const alone = await create({ model: 'gpt-4o', input: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'You said: hi' }, { role: 'user', content: 'hi' }] });
    expect(next.instructions).toBeNull();
    expect(next.usage?.input_tokens).toBe(alone.usage?.input_tokens);
  });

  it('answers 404 previous_response_not_found for an unknown id and for a response stored with store: false', async () => {
    const unstored = await create({ model: 'gpt-4o', input: 'x', store: false });
    for (const id of ['resp_missing', unstored.id]) {
      const response = await postResponses(sim, { model: 'gpt-4o', input: 'x', previous_response_id: id });
      expect(response.status).toBe(404);
      const body: unknown = await response.json();
      expectSpecValid('ErrorResponse', body);
      expect(ErrorResponseSchema.parse(body).error).toEqual({
        code: 'previous_response_not_found',
        message: `Previous response with id '${id}' not found.`,
        type: 'invalid_request_error',
        param: 'previous_response_id',
      });
    }
  });

  it('retrieves and deletes a stored response; unknown or deleted ids answer 404', async () => {
    const created = await create({ model: 'gpt-4o', input: 'keep me' });
    const fetched = await getJson('GET', `/responses/${created.id}`);
    expectSpecValid('Response', fetched);
    expect(fetched).toEqual(JSON.parse(JSON.stringify(created)));
    expect(await getJson('DELETE', `/responses/${created.id}`)).toEqual({ id: created.id, object: 'response', deleted: true });
    for (const [method, path] of [
      ['GET', `/responses/${created.id}`],
      ['DELETE', `/responses/${created.id}`],
      ['GET', '/responses/resp_nope/input_items'],
    ] as const) {
      const body = ErrorResponseSchema.parse(await getJson(method, path, 404));
      expect(body.error.message).toMatch(/^Response with id 'resp_\w+' not found\.$/);
    }
    expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toContain(`DELETE /v1/responses/${created.id}`);
  });

  it('lists input items with ids, newest first by default, paged by limit and after', async () => {
    const created = await create({
      model: 'gpt-4o',
      input: [
        { role: 'developer', content: 'Be kind.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first' }] },
        { id: 'msg_mine', role: 'assistant', content: 'earlier answer' },
        { role: 'user', content: 'second' },
      ],
    });
    const all = await getJson('GET', `/responses/${created.id}/input_items`);
    expectSpecValid('ResponseItemList', all);
    const list = ResponseInputItemListSchema.parse(all);
    expect(list.data.map((item) => item['role'])).toEqual(['user', 'assistant', 'user', 'developer']);
    expect(list.data[0]).toEqual({ id: expect.stringMatching(/^msg_[0-9a-f]{48}$/), type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'second' }] });
    expect(list.data[1]).toMatchObject({ id: 'msg_mine', content: [{ type: 'output_text', text: 'earlier answer' }] });
    expect(list).toMatchObject({ first_id: list.data[0]?.id, last_id: list.data[3]?.id, has_more: false });

    const page1 = ResponseInputItemListSchema.parse(await getJson('GET', `/responses/${created.id}/input_items?order=asc&limit=3`));
    expect(page1.data.map((item) => item['role'])).toEqual(['developer', 'user', 'assistant']);
    expect(page1.has_more).toBe(true);
    const page2 = ResponseInputItemListSchema.parse(await getJson('GET', `/responses/${created.id}/input_items?order=asc&limit=3&after=${page1.last_id}`));
    expect(page2.data.map((item) => item['role'])).toEqual(['user']);
    expect(page2.has_more).toBe(false);
    expect(ErrorResponseSchema.parse(await getJson('GET', `/responses/${created.id}/input_items?limit=0`, 400)).error.param).toBe('limit');
  });

  it('lists a string input as one user message, and calls and their outputs with ids and statuses', async () => {
    const created = await create({
      model: 'gpt-4o',
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'get weather' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'rain' },
      ],
    });
    const list = await getJson('GET', `/responses/${created.id}/input_items?order=asc`);
    expectSpecValid('ResponseItemList', list);
    expect(ResponseInputItemListSchema.parse(list).data.map((item) => [item.type, item.id.split('_')[0], item['status']])).toEqual([
      ['message', 'msg', 'completed'],
      ['function_call', 'fc', 'completed'],
      ['function_call_output', 'fco', 'completed'],
    ]);
    const plain = await create({ model: 'gpt-4o', input: 'just text' });
    const plainList = ResponseInputItemListSchema.parse(await getJson('GET', `/responses/${plain.id}/input_items`));
    expect(plainList.data).toEqual([expect.objectContaining({ role: 'user', content: [{ type: 'input_text', text: 'just text' }] })]);
  });

  it('resolves item_reference inputs from stored conversations; an unknown one is a 404', async () => {
    const first = await create({ model: 'gpt-4o', input: 'remember me' });
    const itemId = (first.output[0] as { id: string }).id;
    const next = await create({ model: 'gpt-4o', input: [{ type: 'item_reference', id: itemId }, { role: 'user', content: 'again' }] });
    const listed = ResponseInputItemListSchema.parse(await getJson('GET', `/responses/${next.id}/input_items?order=asc`));
    expect(listed.data[0]).toMatchObject({ id: itemId, type: 'message', role: 'assistant' });
    const missing = await postResponses(sim, { model: 'gpt-4o', input: [{ type: 'item_reference', id: 'msg_gone' }] });
    expect(missing.status).toBe(404);
    expect(ErrorResponseSchema.parse(await missing.json()).error).toMatchObject({ param: 'input', message: "Item with id 'msg_gone' not found." });
  });

  it('forgets stored responses on reset()', async () => {
    const created = await create({ model: 'gpt-4o', input: 'x' });
    sim.reset();
    await getJson('GET', `/responses/${created.id}`, 404);
  });
});

describe('background responses', () => {
  it('answers queued at once, then completes after the default 200 ms', async () => {
    const queued = await create({ model: 'gpt-4o', input: 'later please', background: true });
    expect(queued).toMatchObject({ status: 'queued', background: true, output: [] });
    const early = ResponseObjectSchema.parse(await getJson('GET', `/responses/${queued.id}`));
    expect(early.status).toBe('queued');
    let done = early;
    for (let attempt = 0; attempt < 40 && done.status === 'queued'; attempt += 1) {
      await sleep(25);
      done = ResponseObjectSchema.parse(await getJson('GET', `/responses/${queued.id}`));
    }
    expectSpecValid('Response', done);
    expect(done).toMatchObject({ status: 'completed', background: true, id: queued.id });
    expect(textOf(done)).toBe('You said: later please');
    expect(done.usage?.output_tokens).toBe(4);
  });

  it('takes latencyMsPerToken × output tokens when a latency is set, and is cancelled before that', async () => {
    const slow = await create({ model: 'gpt-4o', input: 'slow one [sim:latency=500]', background: true });
    await sleep(250);
    expect(ResponseObjectSchema.parse(await getJson('GET', `/responses/${slow.id}`)).status).toBe('queued');
    const cancelled = await getJson('POST', `/responses/${slow.id}/cancel`);
    expectSpecValid('Response', cancelled);
    expect(cancelled).toMatchObject({ id: slow.id, status: 'cancelled', output: [] });
    // Cancelling again returns the same final object.
    expect(await getJson('POST', `/responses/${slow.id}/cancel`)).toEqual(cancelled);
    expect(ResponseObjectSchema.parse(await getJson('GET', `/responses/${slow.id}`)).status).toBe('cancelled');
  });

  it('refuses to cancel a response that was not created in the background, and unknown ids', async () => {
    const plain = await create({ model: 'gpt-4o', input: 'x' });
    const refused = ErrorResponseSchema.parse(await getJson('POST', `/responses/${plain.id}/cancel`, 400));
    expect(refused.error).toMatchObject({ message: 'Only responses created with background=true can be cancelled', type: 'invalid_request_error' });
    await getJson('POST', '/responses/resp_nope/cancel', 404);
  });

  it('needs store: background with store: false is a 400', async () => {
    const response = await postResponses(sim, { model: 'gpt-4o', input: 'x', background: true, store: false });
    expect(response.status).toBe(400);
    expect(ErrorResponseSchema.parse(await response.json()).error.param).toBe('store');
  });
});
