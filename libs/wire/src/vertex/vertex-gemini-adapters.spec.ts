import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { readFixture } from '../testing/fixtures';
import { readGeminiStreamLines } from '../gemini/testing/gemini-fixtures';
import { vertexProvider } from '../providers/vertex';
import { vertexGeminiAdapter, vertexGeminiNativeAdapter } from './vertex-gemini-adapters';
import { GLOBAL, SERVICE_ACCOUNT_KEY, US_EAST5 } from './testing/vertex-channel';

function buildChat(fields: Record<string, unknown>, channel = US_EAST5, upstreamModel = 'gemini-2.5-flash') {
  const request = ChatCompletionRequestSchema.parse({ model: 'my-gemini', ...fields });
  const built = vertexGeminiAdapter.buildRequest({ channel, key: SERVICE_ACCOUNT_KEY, request, upstreamModel });
  return { ...built, json: JSON.parse(String(built.body)) as Record<string, unknown> };
}

/** A tool call id the relay made for a Gemini 3 call: the id, and the call's thought signature. */
const SIGNED_ID = 'call_0123456789abcdef01234567_ts_c2lnbmF0dXJl';

// https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
describe('Gemini on Vertex, chat through the hub', () => {
  it("posts the Gemini adapter's body to the regional publishers/google URL, with no key header (the server adds the bearer)", () => {
    const { url, headers, json } = buildChat({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], max_tokens: 20 });
    expect(url).toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(headers).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
    expect(json).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { maxOutputTokens: 20 },
    });
  });

  it('streams from :streamGenerateContent?alt=sse on the global host', () => {
    const { url, headers } = buildChat({ messages: [{ role: 'user', content: 'Hi' }], stream: true }, GLOBAL);
    expect(url).toBe('https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(headers['accept']).toBe('text/event-stream');
  });

  it('leaves out functionCall and functionResponse ids, which Vertex v1 does not take, and keeps the thought signature', () => {
    const { json } = buildChat({
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: SIGNED_ID, type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: SIGNED_ID, content: '{"temp":3}' },
      ],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    });
    const contents = json['contents'] as Array<{ role: string; parts: Array<Record<string, Record<string, unknown>>> }>;
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1]?.parts[0]).toEqual({ functionCall: { name: 'weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2lnbmF0dXJl' });
    expect(contents[2]?.parts[0]?.['functionResponse']).toMatchObject({ name: 'weather' });
    expect(contents[2]?.parts[0]?.['functionResponse']).not.toHaveProperty('id');
  });

  it("reads answers and streams as the Gemini adapter does, under the caller's model name", () => {
    const converted = vertexGeminiAdapter.convertResponse(readFixture('gemini/generate-content-text.json'), 'my-gemini');
    expect(converted.ok && converted.body['model']).toBe('my-gemini');
    const stream = vertexGeminiAdapter.createStreamTransformer({ publicModel: 'my-gemini', callerWantsUsage: true, secrets: [] });
    for (const data of readGeminiStreamLines('generate-content-text.stream.jsonl')) stream.transform({ data });
    expect(stream.complete).toBe(true);
    expect(stream.usage?.promptTokens).toBeGreaterThan(0);
  });

  it('is the chat adapter for every model not Claude', () => {
    expect(vertexProvider.chatFor?.('gemini-2.5-pro')).toBe(vertexGeminiAdapter);
    expect(vertexProvider.chat).toBe(vertexGeminiAdapter);
  });
});

describe('generateContent callers passed through to Gemini on Vertex', () => {
  const build = (body: Record<string, unknown>, stream: boolean) =>
    vertexGeminiNativeAdapter.buildRequest({ channel: US_EAST5, key: SERVICE_ACCOUNT_KEY, body, upstreamModel: 'gemini-2.5-pro', headers: {}, stream });

  it("sends the caller's body with a role on every content — Vertex requires one even for a single turn", () => {
    // https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content
    const built = build({ contents: [{ parts: [{ text: 'Hi' }] }], generationConfig: { temperature: 0.2 }, safetySettings: [] }, false);
    expect(built.url).toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent');
    expect(JSON.parse(String(built.body))).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { temperature: 0.2 }, safetySettings: [] });
    expect(built.headers).not.toHaveProperty('x-goog-api-key');
  });

  it('streams as SSE, and is offered for Gemini models only', () => {
    expect(build({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }, true).url).toMatch(/:streamGenerateContent\?alt=sse$/);
    expect(vertexProvider.nativeFor?.('generate_content', 'gemini-2.5-pro')).toBe(vertexGeminiNativeAdapter);
    expect(vertexProvider.nativeFor?.('generate_content', 'claude-sonnet-4-5@20250929')).toBeUndefined();
    expect(vertexProvider.nativeFor?.('responses', 'gemini-2.5-pro')).toBeUndefined();
  });

  it("gives the answer back with the caller's model as modelVersion", () => {
    const converted = vertexGeminiNativeAdapter.convertResponse(readFixture('gemini/generate-content-text.json'), 'my-gemini');
    expect(converted.ok && converted.body['modelVersion']).toBe('my-gemini');
  });
});
