import { anthropicVersion, postAnthropic, testKey } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());

interface Rejection {
  status: number;
  type: string;
  message: string;
}

async function rejected(body: unknown, headers: { key?: string; version?: string } = {}): Promise<Rejection> {
  const response = await postAnthropic(sim, body, headers);
  const json = (await response.json()) as { type: string; error: { type: string; message: string } };
  expect(json.type).toBe('error');
  return { status: response.status, type: json.error.type, message: json.error.message };
}

const messages = (body: Record<string, unknown>) => ({ model: 'claude-sonnet-4-5', max_tokens: 256, ...body });
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'f', input: {} });
const toolResult = (id: string, content: unknown = 'x') => ({ type: 'tool_result', tool_use_id: id, content });
const text = (value: string) => ({ type: 'text', text: value });

describe('400 invalid_request_error like the real Messages API', () => {
  it.each([
    ['an empty text block', [user([text('')])], 'messages: text content blocks must be non-empty'],
    [
      'an empty text block in a tool result',
      [user('x'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1', [text('')])])],
      'messages: text content blocks must be non-empty',
    ],
    ['a whitespace-only text block', [user([text('hi'), text(' \n')])], 'messages: text content blocks must contain non-whitespace text'],
    ['an empty text block in the final assistant turn', [user('a'), assistant([text('')])], 'messages: text content blocks must be non-empty'],
    ['a prefill ending in whitespace', [user('a'), assistant('Sure, ')], 'messages: final assistant content cannot end with trailing whitespace'],
    ['an empty turn', [user(''), assistant('ok'), user('x')], 'messages.0: all messages must have non-empty content'],
    [
      'two user turns in a row',
      [user('a'), user('b')],
      'roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
    ],
    ['two assistant turns in a row', [user('a'), assistant('b'), assistant('c')], 'found multiple "assistant" roles in a row'],
    ['an assistant first', [assistant('a'), user('b')], 'first message must use the "user" role'],
    ['a system role in messages', [{ role: 'system', content: 'x' }], 'messages.0.role'],
    [
      'a tool_use without its tool_result next',
      [user('a'), assistant([toolUse('toolu_1')]), user('b')],
      'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1',
    ],
    [
      'a tool_result for an unknown tool_use',
      [user('a'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1'), toolResult('toolu_2')])],
      'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_2',
    ],
    [
      'text before a tool_result',
      [user('a'), assistant([toolUse('toolu_1')]), user([text('here'), toolResult('toolu_1')])],
      'messages.2.content.1: tool_result blocks must come before any other content',
    ],
    [
      'a tool_use id outside [a-zA-Z0-9_-]',
      [user('a'), assistant([toolUse('call.1')]), user([toolResult('call.1')])],
      "messages.1.content.0.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    ],
  ])('%s', async (_case, conversation, expected) => {
    const { status, type, message } = await rejected(messages({ messages: conversation }));
    expect([status, type]).toEqual([400, 'invalid_request_error']);
    expect(message).toContain(expected);
  });

  it('a missing max_tokens, a temperature above 1, a tool without input_schema or of another type', async () => {
    const ask = [user('hi')];
    expect(await rejected({ model: 'claude', messages: ask })).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: 'max_tokens: Field required',
    });
    expect((await rejected(messages({ messages: ask, temperature: 1.5 }))).message).toMatch(/^temperature: /);
    expect((await rejected(messages({ messages: ask, tools: [{ name: 'f' }] }))).message).toBe(
      'tools.0.input_schema: Field required',
    );
    const notAnObject = await rejected(messages({ messages: ask, tools: [{ name: 'f', input_schema: {} }] }));
    expect(notAnObject.message).toMatch(/^tools\.0\.input_schema\.type: /);
  });

  it('a body that is not JSON', async () => {
    const { status, type } = await rejected('{"model": ');
    expect([status, type]).toEqual([400, 'invalid_request_error']);
  });

  it('accepts a final empty assistant turn and server tools without input_schema', async () => {
    const response = await postAnthropic(
      sim,
      messages({ messages: [user('hi'), assistant([])], tools: [{ type: 'web_search_20250305', name: 'web_search' }] }),
    );
    expect(response.status).toBe(200);
  });
});

describe('headers', () => {
  const body = messages({ messages: [user('hi')] });

  it('401 authentication_error without x-api-key or with a key not accepted', async () => {
    expect(await rejected(body, { key: '' })).toEqual({
      status: 401,
      type: 'authentication_error',
      message: 'x-api-key header is required',
    });
    expect(await rejected(body, { key: 'sk-wrong' })).toEqual({
      status: 401,
      type: 'authentication_error',
      message: 'invalid x-api-key',
    });
  });

  it('400 without anthropic-version', async () => {
    expect(await rejected(body, { version: '' })).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: 'anthropic-version: header is required',
    });
  });

  it('does not take a bearer token for an x-api-key', async () => {
    const response = await fetch(`${sim.anthropicBaseUrl}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testKey}`, 'anthropic-version': anthropicVersion },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(401);
  });
});

describe('system-role messages (Claude Code 2.1.332)', () => {
  const body = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [user('say hi'), { role: 'system', content: [{ type: 'text', text: 'Environment: linux' }] }] };
  const post = (betas: string) =>
    fetch(`${sim.anthropicBaseUrl}/messages`, {
      method: 'POST',
      headers: { 'x-api-key': testKey, 'anthropic-version': anthropicVersion, 'anthropic-beta': betas, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('are taken with the betas Claude Code sends beside them, and refused without', async () => {
    expect((await post('claude-code-20250219,per-turn-control-2026-07-01,mid-conversation-tool-changes-2026-07-01')).status).toBe(200);
    expect((await post('mid-conversation-system-2026-04-07')).status).toBe(200);
    const refused = await post('claude-code-20250219');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('messages.1.role');
  });
});
