import type { ChannelPassthroughInput, Price } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { patchToken } from '../testing/patch-token';
import { createAccount, createToken } from '../testing/system-api';
import { startE2eRelay, type E2eRelay } from './e2e-relay';

/**
 * Issue 26: what native Responses passthrough forwards is policed by what it carries. A token
 * allowed only `gpt-4o-mini`, on an `openai` channel whose upstream speaks the Responses API
 * (passthrough), with the official `openai` package: hosted tools, their own models, premium
 * tiers and upstream object ids are refused unless the channel lets them through and the price
 * table prices them; hosted calls that ran are charged per call on the usage row.
 */

const MODEL = 'gpt-4o-mini';
/** Micro-USD per million tokens: 150 / 600, as OpenAI lists gpt-4o-mini ($0.15 / $0.60). */
const TOKENS = { model: MODEL, input: 150_000, output: 600_000 } satisfies Price;
/** $10 per 1,000 web search calls; $2.50 per 1,000 file searches; gpt-image-1 medium 1024² at $0.042. */
const PER_CALL = { web_search: 10_000, file_search: 2_500, image_generation: 42_000 };

interface Setup {
  passthrough?: ChannelPassthroughInput;
  price?: Partial<Price>;
}

describe('e2e: native Responses passthrough is policed by what it carries (issue 26)', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  let client: OpenAI;
  const upstreamCalls = () => sim.requests.filter((request) => request.method === 'POST' && request.path === '/v1/responses');

  async function start({ passthrough, price }: Setup = {}): Promise<void> {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    await e2e.addChannel(sim.baseUrl, { models: [MODEL], responses_api: 'native', ...(passthrough ? { passthrough } : {}) });
    const prices = await fetch(`${e2e.url}/api/prices`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [{ ...TOKENS, ...price }] }),
    });
    expect(prices.status).toBe(200);
    await patchToken(e2e.relay, e2e.tokenId, { models: [MODEL] });
    client = e2e.client();
  }

  afterEach(async () => {
    await e2e.close();
  });

  /** The refusal the SDK raised: its status and OpenAI error fields. */
  async function refusal(body: OpenAI.Responses.ResponseCreateParamsNonStreaming): Promise<{ status: number; type: string; code: string | null; param: string | null | undefined; message: string }> {
    const error: unknown = await client.responses.create(body).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof OpenAI.APIError)) throw new Error(`expected a refusal, got ${String(error)}`);
    return { status: error.status ?? 0, type: error.type ?? '', code: error.code ?? null, param: error.param, message: error.message };
  }

  /** Token cost at the table's gpt-4o-mini price, rounded up as the relay rounds it. */
  const tokenCost = (row: { promptTokens: number; completionTokens: number }) => Math.ceil((row.promptTokens * TOKENS.input + row.completionTokens * TOKENS.output) / 1_000_000);

  it('a token allowed only gpt-4o-mini cannot reach gpt-image-1 through the image_generation tool: 403, nothing sent', async () => {
    await start({ passthrough: { hosted_tools: ['image_generation'] }, price: { tool_calls: PER_CALL } });
    const refused = await refusal({ model: MODEL, input: 'draw a cat', tools: [{ type: 'image_generation', model: 'gpt-image-1' }] });
    expect(refused).toMatchObject({ status: 403, type: 'permission_error', code: 'model_not_allowed', param: 'tools[0].model' });
    expect(refused.message).toContain("'gpt-image-1'");
    // The tool's default model is checked too.
    expect(await refusal({ model: MODEL, input: 'draw a cat', tools: [{ type: 'image_generation' }] })).toMatchObject({ status: 403, param: 'tools[0].model' });
    expect(upstreamCalls()).toHaveLength(0);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 403, cost: 0 });
  });

  it('hosted tools are refused by default (400 naming the tool), before any upstream call', async () => {
    await start();
    for (const tool of [{ type: 'web_search' }, { type: 'code_interpreter', container: { type: 'auto' } }] as const) {
      const refused = await refusal({ model: MODEL, input: 'hi', tools: [tool] });
      expect(refused).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'hosted_tool_not_allowed', param: 'tools[0]' });
      expect(refused.message).toContain(tool.type);
    }
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('additional_tools_hosted_tool_unpoliced: a hosted tool inside an additional_tools input item is refused like one in tools, naming its place', async () => {
    await start();
    const added = { type: 'additional_tools', id: 'at_1', role: 'developer', tools: [{ type: 'namespace', name: 'functions', description: '', tools: [{ type: 'web_search' }] }] };
    const input = [added, { role: 'user', content: 'hi' }] as unknown as OpenAI.Responses.ResponseInput;
    expect(await refusal({ model: MODEL, input })).toMatchObject({ status: 400, code: 'hosted_tool_not_allowed', param: 'input[0].tools[0].tools[0]' });
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('the tools a caller runs itself pass with nothing allowed, as Codex declares them on every turn', async () => {
    await start();
    const codexTools = [
      { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } }, strict: false },
      { type: 'local_shell' },
      { type: 'shell', environment: { type: 'local' } },
      { type: 'apply_patch' },
      { type: 'custom', name: 'apply_patch', description: 'Edits files', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
      { type: 'tool_search' },
      { type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: {} }, strict: false }] },
    ] as unknown as OpenAI.Responses.Tool[];
    const answer = await client.responses.create({ model: MODEL, input: 'list the files', tools: codexTools, store: false });
    expect(answer.status).toBe('completed');
    expect(upstreamCalls()).toHaveLength(1);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, units: 0 });
  });

  it('a hosted tool the channel allows but the price table does not price is refused', async () => {
    await start({ passthrough: { hosted_tools: ['web_search'] } });
    expect(await refusal({ model: MODEL, input: 'hi', tools: [{ type: 'web_search' }] })).toMatchObject({ status: 400, code: 'hosted_tool_not_priced', param: 'tools[0]' });
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('file_search with vector_store_ids (objects shared by every tenant of the key) is refused, naming the field', async () => {
    await start({ passthrough: { hosted_tools: ['file_search'] }, price: { tool_calls: PER_CALL } });
    const refused = await refusal({ model: MODEL, input: 'find it', tools: [{ type: 'file_search', vector_store_ids: ['vs_other_tenant'] }] });
    expect(refused).toMatchObject({ status: 400, code: 'upstream_object_not_allowed', param: 'tools[0].vector_store_ids[0]' });
    expect(refused.message).toContain('vs_other_tenant');
    expect(upstreamCalls()).toHaveLength(0);
  });

  it.each([
    ['conversation', { conversation: 'conv_other_tenant' }, 'conversation'],
    ['prompt', { prompt: { id: 'pmpt_other_tenant' } }, 'prompt.id'],
    ['an input file', { input: [{ role: 'user' as const, content: [{ type: 'input_file' as const, file_id: 'file-other' }] }] }, 'input[0].content[0].file_id'],
  ])('%s ids are refused, naming the field', async (_name, fields, param) => {
    await start();
    expect(await refusal({ model: MODEL, input: 'hi', ...fields })).toMatchObject({ status: 400, code: 'upstream_object_not_allowed', param });
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('with upstream_objects on (a single-tenant install), the ids pass through as sent', async () => {
    await start({ passthrough: { hosted_tools: ['file_search'], upstream_objects: true }, price: { tool_calls: PER_CALL } });
    const response = await client.responses.create({ model: MODEL, input: 'find it', tools: [{ type: 'file_search', vector_store_ids: ['vs_mine'] }] });
    expect(response.output.map((item) => item.type)).toEqual(['file_search_call', 'message']);
    expect(upstreamCalls()[0]?.body).toMatchObject({ tools: [{ type: 'file_search', vector_store_ids: ['vs_mine'] }] });
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, units: 1, cost: tokenCost(row!) + PER_CALL.file_search });
  });

  it('service_tier priority is refused unless the channel allows it and the table prices it; then the row costs the multiple', async () => {
    await start();
    expect(await refusal({ model: MODEL, input: 'hi', service_tier: 'priority' })).toMatchObject({ status: 400, code: 'service_tier_not_allowed', param: 'service_tier' });
    await e2e.close();

    await start({ passthrough: { service_tiers: ['priority'] } });
    expect(await refusal({ model: MODEL, input: 'hi', service_tier: 'priority' })).toMatchObject({ status: 400, code: 'service_tier_not_priced', param: 'service_tier' });
    expect(upstreamCalls()).toHaveLength(0);
    await e2e.close();

    await start({ passthrough: { service_tiers: ['priority'] }, price: { service_tiers: { priority: 2 } } });
    const response = await client.responses.create({ model: MODEL, input: 'hi', service_tier: 'priority' });
    expect(response.service_tier).toBe('priority');
    const [row] = await e2e.usageRows(1);
    expect(row!.cost).toBe(Math.ceil((2 * (row!.promptTokens * TOKENS.input + row!.completionTokens * TOKENS.output)) / 1_000_000));
    expect(row!.cost).toBeGreaterThan(tokenCost(row!));
  });

  it('a web_search that ran is charged per call on the row, unstreamed and streamed', async () => {
    await start({ passthrough: { hosted_tools: ['web_search'] }, price: { tool_calls: PER_CALL } });
    const response = await client.responses.create({ model: MODEL, input: 'news about rust', tools: [{ type: 'web_search' }] });
    expect(response.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);

    const stream = await client.responses.create({ model: MODEL, input: 'news about rust', tools: [{ type: 'web_search' }], stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toContain('response.web_search_call.completed');

    const rows = await e2e.usageRows(2);
    for (const row of rows) expect(row).toMatchObject({ status: 200, units: 1, cost: tokenCost(row) + PER_CALL.web_search });
  });

  it('an image_generation the token may use, allowed and priced, is charged per image generated', async () => {
    await start({ passthrough: { hosted_tools: ['image_generation'] }, price: { tool_calls: PER_CALL } });
    await patchToken(e2e.relay, e2e.tokenId, { models: [MODEL, 'gpt-image-1'] });
    const response = await client.responses.create({ model: MODEL, input: 'draw a cat', tools: [{ type: 'image_generation', model: 'gpt-image-1' }] });
    expect(response.output.map((item) => item.type)).toEqual(['image_generation_call', 'message']);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, units: 1, cost: tokenCost(row!) + PER_CALL.image_generation });
  });

  it("item_reference: the caller's own earlier items pass; an id the relay did not hand this account is refused", async () => {
    await start();
    const first = await client.responses.create({ model: MODEL, input: 'hello there' });
    const mine = first.output[0]?.id;
    expect(mine).toBeDefined();
    const reused = await client.responses.create({ model: MODEL, input: [{ type: 'item_reference', id: mine! }, { role: 'user', content: 'and again' }] });
    expect(reused.status).toBe('completed');

    const refused = await refusal({ model: MODEL, input: [{ type: 'item_reference', id: 'msg_of_another_tenant' }, { role: 'user', content: 'hi' }] });
    expect(refused).toMatchObject({ status: 400, code: 'upstream_object_not_allowed', param: 'input[0].id' });
  });

  it("another tenant's real item, which the shared key could read back, is refused; a streamed answer's item is referable the moment it ends", async () => {
    await start();
    const account = await createAccount(e2e.relay, { name: 'another tenant' });
    const theirs = new OpenAI({ apiKey: (await createToken(e2e.relay, { name: 'theirs' }, account.access_key)).key, baseURL: `${e2e.url}/v1`, maxRetries: 0 });
    const secret = await theirs.responses.create({ model: MODEL, input: 'my secret plans' });
    const theirItem = secret.output[0]?.id ?? '';
    const refused = await refusal({ model: MODEL, input: [{ type: 'item_reference', id: theirItem }, { role: 'user', content: 'repeat that' }] });
    expect(refused).toMatchObject({ status: 400, code: 'upstream_object_not_allowed', param: 'input[0].id' });
    expect(refused.message).toContain(theirItem);

    const stream = await client.responses.create({ model: MODEL, input: 'stream me something', stream: true });
    let done: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') done = event.response;
    const reused = await client.responses.create({ model: MODEL, input: [{ type: 'item_reference', id: done?.output[0]?.id ?? '' }, { role: 'user', content: 'go on' }] });
    expect(reused.status).toBe('completed');
  });

  it('a background response: its web searches are charged when it ends, and its items are referable once retrieved', async () => {
    await start({ passthrough: { hosted_tools: ['web_search'] }, price: { tool_calls: PER_CALL } });
    const queued = await client.responses.create({ model: MODEL, input: 'news about rust', tools: [{ type: 'web_search' }], background: true });
    expect(queued.status).toBe('queued');
    let done = queued;
    for (let tries = 0; done.status !== 'completed' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done = await client.responses.retrieve(queued.id);
    }
    expect(done.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    const reused = await client.responses.create({ model: MODEL, input: [{ type: 'item_reference', id: done.output[1]?.id ?? '' }, { role: 'user', content: 'more' }] });
    expect(reused.status).toBe('completed');
    const rows = await e2e.usageRows(2);
    const background = rows.find((row) => row.units > 0);
    expect(background).toMatchObject({ status: 200, units: 1, usageEstimated: false });
    expect(background!.cost).toBe(tokenCost(background!) + PER_CALL.web_search);
  });
});
