import { anthropicHeaders, anthropicVersion, postAnthropic, postChat, testKey } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { AnthropicMessageResponse, AnthropicModelList } from './anthropic-api';
import { defaultAnthropicBetas } from './anthropic-headers';
import { displayNameOf } from './anthropic-models';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const hello = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] };

async function errorOf(response: Response): Promise<{ status: number; type: string; message: string }> {
  const body = (await response.json()) as { type: string; error: { type: string; message: string } };
  expect(body.type).toBe('error');
  return { status: response.status, type: body.error.type, message: body.error.message };
}

describe('anthropic-beta', () => {
  it.each([
    'prompt-caching-2024-07-31',
    'interleaved-thinking-2025-05-14',
    'fine-grained-tool-streaming-2025-05-14',
    'token-efficient-tools-2025-02-19',
    'output-128k-2025-02-19',
    'context-1m-2025-08-07',
    'claude-code-20250219',
    'oauth-2025-04-20',
    'context-management-2025-06-27',
    'files-api-2025-04-14',
    'computer-use-2025-01-24',
    'mcp-client-2025-04-04',
    'effort-2025-11-24',
    'structured-outputs-2025-11-13',
  ])('accepts %s', async (beta) => {
    expect((await postAnthropic(sim, hello, { beta })).status).toBe(200);
  });

  it('accepts a comma-separated list, and records the version and each value it received', async () => {
    const beta = 'claude-code-20250219,interleaved-thinking-2025-05-14, fine-grained-tool-streaming-2025-05-14';
    expect((await postAnthropic(sim, hello, { beta, path: '/messages?beta=true' })).status).toBe(200);
    expect(sim.requests.at(-1)).toMatchObject({
      path: '/v1/messages',
      query: 'beta=true',
      anthropic: {
        version: anthropicVersion,
        betas: ['claude-code-20250219', 'interleaved-thinking-2025-05-14', 'fine-grained-tool-streaming-2025-05-14'],
      },
    });
    await (await postAnthropic(sim, hello)).text();
    expect(sim.requests.at(-1)?.anthropic).toEqual({ version: anthropicVersion, betas: [] });
  });

  it('refuses unknown values, naming each, in the API words', async () => {
    const beta = 'interleaved-thinking-2025-05-14,prompt-caching-scope-2099-01-05, made-up-2099-01-01';
    expect(await errorOf(await postAnthropic(sim, hello, { beta }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message:
        'Unexpected value(s) `prompt-caching-scope-2099-01-05`, `made-up-2099-01-01` for the `anthropic-beta` header. ' +
        'Please consult our documentation at docs.anthropic.com or try again without the header.',
    });
    // Still recorded, so a test can see what the relay forwarded.
    expect(sim.requests.at(-1)?.anthropic?.betas).toHaveLength(3);
  });

  it('takes its list from anthropicBetas when given', async () => {
    const strict = await startUpstreamSim({ anthropicBetas: ['only-this-2025-01-01'] });
    try {
      expect((await postAnthropic(strict, hello, { beta: 'only-this-2025-01-01' })).status).toBe(200);
      expect((await postAnthropic(strict, hello, { beta: defaultAnthropicBetas[0] })).status).toBe(400);
    } finally {
      await strict.close();
    }
  });

  it('does not record Anthropic headers on OpenAI calls', async () => {
    await (await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).text();
    expect(sim.requests.at(-1)?.anthropic).toBeUndefined();
  });
});

describe('server tools', () => {
  it.each([
    { type: 'bash_20250124', name: 'bash' },
    { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
  ])('accepts $type without input_schema and does not call it', async (tool) => {
    const response = await postAnthropic(sim, { ...hello, tools: [tool] });
    const message = (await response.json()) as AnthropicMessageResponse;
    expect(response.status).toBe(200);
    expect(message.content).toEqual([{ type: 'text', text: 'You said: hello' }]);
  });

  it('runs web_search_20250305 once before the answer, as Anthropic does: server_tool_use, its result, and usage.server_tool_use', async () => {
    const response = await postAnthropic(sim, { ...hello, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] });
    const message = (await response.json()) as AnthropicMessageResponse;
    expect(response.status).toBe(200);
    expect(message.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(message.content[0]).toMatchObject({ name: 'web_search', input: { query: 'hello' } });
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
  });

  it('refuses a web search tool not named web_search, as Anthropic does', async () => {
    const response = await postAnthropic(sim, { ...hello, tools: [{ type: 'web_search_20250305', name: 'search' }] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe("tools.0.name: Input should be 'web_search'");
  });

  it('accepts server tool blocks in the history', async () => {
    const history = [
      { role: 'user', content: 'search the web' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'news' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [] },
          { type: 'text', text: 'Nothing new.' },
        ],
      },
      { role: 'user', content: 'thanks' },
    ];
    const response = await postAnthropic(sim, { ...hello, messages: history });
    expect(response.status).toBe(200);
  });
});

describe('GET /v1/models on the Anthropic side', () => {
  const getModels = (path: string, init: { key?: string; version?: string } = {}) =>
    fetch(`${sim.anthropicBaseUrl}${path}`, { headers: anthropicHeaders(init) });

  it("lists Claude models in Anthropic's shape", async () => {
    const response = await getModels('/models');
    const list = (await response.json()) as AnthropicModelList;
    expect(response.status).toBe(200);
    expect(list.data.length).toBeGreaterThan(1);
    expect(list.data[0]).toEqual({
      type: 'model',
      id: expect.stringMatching(/^claude-/),
      display_name: expect.stringMatching(/^Claude /),
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/),
    });
    expect(list.has_more).toBe(false);
    expect([list.first_id, list.last_id]).toEqual([list.data[0]?.id, list.data.at(-1)?.id]);
    expect(list.data.map((model) => model.id)).toContain('claude-sonnet-4-5');
  });

  it('pages with limit, after_id and before_id', async () => {
    const all = ((await (await getModels('/models')).json()) as AnthropicModelList).data.map((model) => model.id);
    const first = (await (await getModels('/models?limit=2')).json()) as AnthropicModelList;
    expect(first.data.map((model) => model.id)).toEqual(all.slice(0, 2));
    expect(first.has_more).toBe(true);
    const next = (await (await getModels(`/models?limit=2&after_id=${first.last_id}`)).json()) as AnthropicModelList;
    expect(next.data.map((model) => model.id)).toEqual(all.slice(2, 4));
    const back = (await (await getModels(`/models?limit=2&before_id=${next.first_id}`)).json()) as AnthropicModelList;
    expect(back).toMatchObject({ has_more: false, first_id: all[0], last_id: all[1] });
    expect((await getModels('/models?limit=0')).status).toBe(400);
  });

  it('gets one model, or 404 not_found_error', async () => {
    const response = await getModels('/models/claude-sonnet-4-5-20250929');
    expect(await response.json()).toEqual({
      type: 'model',
      id: 'claude-sonnet-4-5-20250929',
      display_name: 'Claude Sonnet 4.5',
      created_at: '2025-09-29T00:00:00Z',
    });
    expect(await errorOf(await getModels('/models/claude-nope'))).toEqual({
      status: 404,
      type: 'not_found_error',
      message: 'model: claude-nope',
    });
  });

  it('checks x-api-key, and lists anthropicModels when given', async () => {
    expect((await getModels('/models', { key: 'sk-wrong' })).status).toBe(401);
    const custom = await startUpstreamSim({ anthropicModels: ['claude-custom-1'] });
    try {
      const response = await fetch(`${custom.anthropicBaseUrl}/models`, { headers: anthropicHeaders() });
      expect(((await response.json()) as AnthropicModelList).data.map((model) => model.id)).toEqual(['claude-custom-1']);
    } finally {
      await custom.close();
    }
  });

  it('leaves GET /v1/models with a bearer token to the OpenAI side', async () => {
    const response = await fetch(`${sim.baseUrl}/models`, { headers: { authorization: `Bearer ${testKey}` } });
    const list = (await response.json()) as { object: string; data: { id: string; object: string }[] };
    expect(list.object).toBe('list');
    expect(list.data.slice(0, 2)).toMatchObject([{ id: 'gpt-4o', object: 'model' }, { id: 'gpt-4o-mini' }]);
  });

  it.each([
    ['claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5'],
    ['claude-opus-4-1', 'Claude Opus 4.1'],
    ['claude-3-7-sonnet-latest', 'Claude 3.7 Sonnet Latest'],
    ['claude-haiku-4-5', 'Claude Haiku 4.5'],
  ])('names %s "%s"', (id, name) => {
    expect(displayNameOf(id)).toBe(name);
  });
});
