import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { readFixture } from '../testing/fixtures';
import { vertexProvider } from '../providers/vertex';
import { buildVertexClaudeCountTokensRequest, vertexClaudeAdapter, vertexClaudeNativeAdapter } from './vertex-claude-adapters';
import { GLOBAL, SERVICE_ACCOUNT_KEY, US_EAST5 } from './testing/vertex-channel';

const CLAUDE = 'claude-sonnet-4-5@20250929';
const RAW_PREDICT = `https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/anthropic/models/${CLAUDE}`;

function buildChat(fields: Record<string, unknown>) {
  const request = ChatCompletionRequestSchema.parse({ model: 'my-claude', ...fields });
  const built = vertexClaudeAdapter.buildRequest({ channel: US_EAST5, key: SERVICE_ACCOUNT_KEY, request, upstreamModel: CLAUDE });
  return { ...built, json: JSON.parse(String(built.body)) as Record<string, unknown> };
}

const native = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  vertexClaudeNativeAdapter.buildRequest({ channel: US_EAST5, key: SERVICE_ACCOUNT_KEY, body, upstreamModel: CLAUDE, headers, stream: body['stream'] === true });

/** The SSE events of a recorded Anthropic stream, as the relay's parser hands them over. */
const recordedEvents = () =>
  readFixture('anthropic/message-text.stream.jsonl')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((data) => ({ event: (JSON.parse(data) as { type: string }).type, data }));

// https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude
describe('Claude on Vertex, chat through the hub', () => {
  it("posts the Anthropic adapter's body to :rawPredict without model, with Vertex's anthropic_version, no x-api-key or anthropic-version", () => {
    const { url, headers, json } = buildChat({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: 50 });
    expect(url).toBe(`${RAW_PREDICT}:rawPredict`);
    expect(headers).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
    expect(json).toEqual({ anthropic_version: 'vertex-2023-10-16', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], max_tokens: 50 });
  });

  it('streams from :streamRawPredict with stream: true in the body, as the Vertex SDK sends it', () => {
    const { url, headers, json } = buildChat({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: 50, stream: true });
    expect(url).toBe(`${RAW_PREDICT}:streamRawPredict`);
    expect(headers['accept']).toBe('text/event-stream');
    expect(json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
    expect(json).not.toHaveProperty('model');
  });

  it("reads Anthropic's answers and SSE events", () => {
    const converted = vertexClaudeAdapter.convertResponse(readFixture('anthropic/message-text.json'), 'my-claude');
    expect(converted.ok && converted.body['model']).toBe('my-claude');
    const stream = vertexClaudeAdapter.createStreamTransformer({ publicModel: 'my-claude', callerWantsUsage: true, secrets: [] });
    for (const event of recordedEvents()) stream.transform(event);
    expect(stream.complete).toBe(true);
    expect(stream.usage?.promptTokens).toBe(12);
  });

  it('is picked for claude-* models, dated or not', () => {
    expect(vertexProvider.chatFor?.(CLAUDE)).toBe(vertexClaudeAdapter);
    expect(vertexProvider.chatFor?.('claude-opus-4-6')).toBe(vertexClaudeAdapter);
  });
});

describe('Messages callers passed through to Claude on Vertex', () => {
  it("sends the caller's request without model, with Vertex's version, and its anthropic-beta header as a header", () => {
    const built = native(
      { model: 'my-claude', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'enabled', budget_tokens: 1024 } },
      { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-1m-2025-08-07' },
    );
    expect(built.url).toBe(`${RAW_PREDICT}:rawPredict`);
    expect(built.headers).toEqual({ 'content-type': 'application/json', accept: 'application/json', 'anthropic-beta': 'context-1m-2025-08-07' });
    expect(JSON.parse(String(built.body))).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Hi' }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });

  it('streams from :streamRawPredict, and a caller cannot choose another anthropic_version', () => {
    const built = native({ model: 'm', max_tokens: 10, messages: [], stream: true, anthropic_version: 'bedrock-2023-05-31' });
    expect(built.url).toBe(`${RAW_PREDICT}:streamRawPredict`);
    expect(JSON.parse(String(built.body))).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
  });

  it("relays the answer with the caller's model name, and is offered for Claude models only", () => {
    const converted = vertexClaudeNativeAdapter.convertResponse(readFixture('anthropic/message-text.json'), 'my-claude');
    expect(converted.ok && converted.body['model']).toBe('my-claude');
    expect(vertexProvider.nativeFor?.('messages', CLAUDE)).toBe(vertexClaudeNativeAdapter);
    expect(vertexProvider.nativeFor?.('messages', 'gemini-2.5-pro')).toBeUndefined();
  });
});

// https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens
describe("Claude's token count on Vertex", () => {
  it('posts to count-tokens:rawPredict with the model named in the body, on the channel host', () => {
    const built = buildVertexClaudeCountTokensRequest({
      channel: GLOBAL,
      key: SERVICE_ACCOUNT_KEY,
      body: { model: 'my-claude', messages: [{ role: 'user', content: 'Hi' }] },
      upstreamModel: CLAUDE,
      headers: {},
      stream: false,
    });
    expect(built.url).toBe('https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/anthropic/models/count-tokens:rawPredict');
    expect(JSON.parse(String(built.body))).toEqual({ anthropic_version: 'vertex-2023-10-16', messages: [{ role: 'user', content: 'Hi' }], model: CLAUDE });
    expect(vertexProvider.tokenCounter?.dialect).toBe('messages');
  });

  it('refuses to count for a Gemini model, rather than ask Claude’s endpoint about it', () => {
    const build = () =>
      buildVertexClaudeCountTokensRequest({ channel: GLOBAL, key: SERVICE_ACCOUNT_KEY, body: { model: 'x', messages: [] }, upstreamModel: 'gemini-2.5-pro', headers: {}, stream: false });
    expect(build).toThrow("count_tokens on a Vertex AI channel counts Claude models only; 'gemini-2.5-pro' is not one.");
  });
});
