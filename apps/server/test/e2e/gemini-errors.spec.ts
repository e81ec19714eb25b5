import { ApiError, type GoogleGenAI } from '@google/genai';
import { GeminiErrorResponseSchema, type GeminiErrorObject } from '@chat-relay/contract';
import { patchToken } from '../testing/patch-token';
import { channelKinds, geminiKind, openAiKind } from './anthropic-e2e';
import { GEMINI, genaiClient, postGemini, startGeminiRelay, type GeminiE2e } from './gemini-e2e';
import { usageRowsFor } from './usage-rows-for';

/** The SDK's error for a call, its message (Google's error body, as the SDK quotes it) read back; fails the test when the call succeeds. */
async function sdkError(call: () => Promise<unknown>): Promise<{ status: number; error: GeminiErrorObject }> {
  try {
    await call();
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) throw thrown;
    const quoted = thrown.message.slice(thrown.message.indexOf('{'));
    return { status: thrown.status, error: GeminiErrorResponseSchema.parse(JSON.parse(quoted)).error };
  }
  throw new Error('expected the call to fail');
}

const streamAll = async (genai: GoogleGenAI, text: string): Promise<string> => {
  let received = '';
  for await (const chunk of await genai.models.generateContentStream({ model: GEMINI, contents: text })) received += chunk.text ?? '';
  return received;
};

describe('e2e: @google/genai meets the relay’s errors in Google’s shape', () => {
  let e2e: GeminiE2e;

  beforeEach(async () => {
    e2e = await startGeminiRelay(openAiKind);
  });
  afterEach(() => e2e.close());

  it('a bad key: 401 UNAUTHENTICATED, nothing sent upstream', async () => {
    const { status, error } = await sdkError(() => genaiClient(e2e, 'sk-not-a-relay-key').models.generateContent({ model: GEMINI, contents: 'Hello' }));
    expect(status).toBe(401);
    expect(error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    expect(e2e.sim.requests).toEqual([]);
  });

  it('an unknown model: 404 NOT_FOUND naming it', async () => {
    const { status, error } = await sdkError(() => e2e.genai.models.generateContent({ model: 'gemini-0-nope', contents: 'Hello' }));
    expect(status).toBe(404);
    expect(error).toMatchObject({ code: 404, status: 'NOT_FOUND', message: expect.stringContaining("'gemini-0-nope'") });
  });

  it('a value out of range, as the SDK sends it: 400 INVALID_ARGUMENT naming the field', async () => {
    const { status, error } = await sdkError(() => e2e.genai.models.generateContent({ model: GEMINI, contents: 'Hello', config: { temperature: 7 } }));
    expect(status).toBe(400);
    expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('generationConfig.temperature') });
  });

  it('a malformed body sent by hand: 400 INVALID_ARGUMENT naming the field', async () => {
    const response = await postGemini(e2e, `${GEMINI}:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'Hi' }, { functionResponse: { name: 'f', response: 'sunny' } }] }] });
    expect(response.status).toBe(400);
    const { error } = GeminiErrorResponseSchema.parse(await response.json());
    expect(error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('contents[0].parts[1].functionResponse.response') });
  });

  it('an exhausted quota: 429 RESOURCE_EXHAUSTED, as Google reports its own quotas', async () => {
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: 1 });
    const { status, error } = await sdkError(() => e2e.genai.models.generateContent({ model: GEMINI, contents: 'Hello' }));
    expect(status).toBe(429);
    expect(error).toMatchObject({ status: 'RESOURCE_EXHAUSTED', details: [expect.objectContaining({ reason: 'insufficient_quota' })] });
  });
});

describe.each(channelKinds)('e2e: a $type upstream failing mid-stream, seen through @google/genai', (kind) => {
  let e2e: GeminiE2e;

  beforeEach(async () => {
    e2e = await startGeminiRelay(kind);
  });
  afterEach(() => e2e.close());

  it('the SDK raises Google’s error from the stream’s last event; the row records the failure and its prompt; the next stream is whole', async () => {
    let requestId: string | undefined;
    const failing = async () => {
      for await (const chunk of await e2e.genai.models.generateContentStream({ model: GEMINI, contents: 'Hello there [sim:fault=stream-error]' })) {
        requestId = chunk.sdkHttpResponse?.headers?.['x-request-id'];
      }
    };
    await expect(failing()).rejects.toMatchObject({ status: 502, message: expect.stringContaining('UNAVAILABLE') });
    const [row] = await usageRowsFor(e2e, [requestId]);
    expect(row).toMatchObject({ channelId: e2e.channel.id, stream: true, status: 200 });
    expect(row?.errorCode).not.toBeNull();
    expect(row?.promptTokens).toBeGreaterThan(0);

    expect(await streamAll(e2e.genai, 'Hello there')).toBe('You said: Hello there');
  });
});

describe('e2e: a Gemini-only request', () => {
  it('bridged: 400 INVALID_ARGUMENT naming the field; on a gemini channel that lets Google Search through it passes through', async () => {
    for (const kind of [openAiKind, geminiKind]) {
      const e2e = await startGeminiRelay(kind, { passthrough: { hosted_tools: ['web_search'] } });
      try {
        const price = { model: GEMINI, input: 1_250_000, output: 10_000_000, tool_calls: { web_search: 35_000 } };
        const priced = await fetch(`${e2e.url}/api/prices`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ data: [price] }),
        });
        expect(priced.status).toBe(200);
        const call = () => e2e.genai.models.generateContent({ model: GEMINI, contents: 'Hello there', config: { tools: [{ googleSearch: {} }] } });
        if (kind.type === 'gemini') {
          expect((await call()).text).toBe('You said: Hello there');
        } else {
          const { status, error } = await sdkError(call);
          expect(status).toBe(400);
          expect(error.message).toContain("'tools[0].googleSearch' can only be served by a Gemini channel");
          expect(e2e.sim.requests).toEqual([]);
        }
      } finally {
        await e2e.close();
      }
    }
  });
});
