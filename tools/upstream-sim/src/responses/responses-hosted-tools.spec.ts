import { ResponseObjectSchema } from '@chat-relay/contract';
import { startUpstreamSim } from '../sim-server';
import { parseSse, postResponses, readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { expectSpecValid, warmSpecChecker } from './testing/openai-spec-check';

/** OpenAI's hosted tools on the simulator's /v1/responses: refused as OpenAI refuses them, answered with their call items. */

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
}, 30_000);
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const ask = (fields: Record<string, unknown>) => ({ model: 'gpt-4.1', input: 'what is new in rust', ...fields });

async function refusal(body: Record<string, unknown>): Promise<{ status: number; error: Record<string, unknown> }> {
  const response = await postResponses(sim, body);
  return { status: response.status, error: ((await response.json()) as { error: Record<string, unknown> }).error };
}

describe('hosted tools', () => {
  it.each([
    ['web_search', { type: 'web_search' }, 'web_search_call'],
    ['web_search_preview', { type: 'web_search_preview' }, 'web_search_call'],
    ['file_search', { type: 'file_search', vector_store_ids: ['vs_1'] }, 'file_search_call'],
    ['code_interpreter', { type: 'code_interpreter', container: { type: 'auto' } }, 'code_interpreter_call'],
    ['image_generation', { type: 'image_generation', model: 'gpt-image-1' }, 'image_generation_call'],
  ])('%s: its call item comes before the message, valid against the OpenAI spec', async (_name, tool, itemType) => {
    const response = await postResponses(sim, ask({ tools: [tool] }));
    expect(response.status).toBe(200);
    const json: unknown = await response.json();
    expectSpecValid('Response', json);
    const parsed = ResponseObjectSchema.parse(json);
    expect(parsed.output.map((item) => item.type)).toEqual([itemType, 'message']);
    expect(parsed.output[0]).toMatchObject({ status: 'completed' });
  });

  it('streams a hosted call as OpenAI does: added, its progress events, done — and the completed response holds it', async () => {
    const { text } = await readAll(await postResponses(sim, ask({ tools: [{ type: 'web_search' }], stream: true })));
    const types = parseSse(text).map((event) => event.event);
    expect(types.slice(2, 7)).toEqual([
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
    ]);
    const completed = JSON.parse(parseSse(text).at(-1)?.data ?? '{}') as { response: { output: { type: string }[] } };
    expect(completed.response.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
  });

  it('a code interpreter container given by id is the one the call ran in; tool_choice none runs nothing', async () => {
    const withContainer = ResponseObjectSchema.parse(await (await postResponses(sim, ask({ tools: [{ type: 'code_interpreter', container: 'cntr_abc' }] }))).json());
    expect(withContainer.output[0]).toMatchObject({ type: 'code_interpreter_call', container_id: 'cntr_abc' });
    const none = ResponseObjectSchema.parse(await (await postResponses(sim, ask({ tools: [{ type: 'web_search' }], tool_choice: 'none' }))).json());
    expect(none.output.map((item) => item.type)).toEqual(['message']);
  });

  it.each([
    [{ type: 'file_search' }, "Missing required parameter: 'tools[0].vector_store_ids'.", 'tools[0].vector_store_ids'],
    [{ type: 'code_interpreter' }, "Missing required parameter: 'tools[0].container'.", 'tools[0].container'],
    [{ type: 'image_generation', model: 'dall-e-3' }, /^Invalid value: 'dall-e-3'\. Supported values are: 'gpt-image-1'/, 'tools[0].model'],
    [{ type: 'web_searcher' }, /^Invalid value: 'web_searcher'\./, 'tools[0].type'],
  ])('refuses %j as OpenAI does', async (tool, message, param) => {
    const { status, error } = await refusal(ask({ tools: [tool] }));
    expect(status).toBe(400);
    expect(error['message']).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect(error['param']).toBe(param);
  });
});

describe('service_tier', () => {
  it.each([
    ['priority', 'priority'],
    ['flex', 'flex'],
    ['auto', 'default'],
    [undefined, 'default'],
  ])('%s is answered as served at %s', async (asked, served) => {
    const response = ResponseObjectSchema.parse(await (await postResponses(sim, ask(asked ? { service_tier: asked } : {}))).json());
    expect(response['service_tier']).toBe(served);
  });

  it('refuses a tier OpenAI does not know', async () => {
    const { status, error } = await refusal(ask({ service_tier: 'turbo' }));
    expect({ status, param: error['param'], code: error['code'] }).toEqual({ status: 400, param: 'service_tier', code: 'invalid_value' });
  });
});
