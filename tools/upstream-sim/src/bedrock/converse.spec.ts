import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AwsEventStreamDecoder, type AwsStreamEvent } from '@chat-relay/wire';
import type { SimContext } from '../handle-request';
import { readBody } from '../http-io';
import type { SimFault } from '../sim-types';
import { handleConverse } from './converse';

// The router is another module's: this spec serves handleConverse alone on /model/{id}/converse(-stream).
let server: Server;
let base: string;
const queuedFaults: SimFault[] = [];
const context = { defaultLatencyMsPerToken: 0, takeQueuedFault: () => queuedFaults.shift() } as unknown as SimContext;

beforeAll(async () => {
  server = createServer((req, res) => {
    const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(req.url ?? '');
    void readBody(req).then((body) => handleConverse(res, decodeURIComponent(match?.[1] ?? ''), body.toString('utf8'), match?.[2] === 'converse-stream', context));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => queuedFaults.splice(0));

const LLAMA = 'us.meta.llama3-3-70b-instruct-v1:0';
const post = (body: unknown, { model = LLAMA, stream = false } = {}) =>
  fetch(`${base}/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const hi = { messages: [{ role: 'user', content: [{ text: 'Hello there' }] }] };
const weatherTool = { toolSpec: { name: 'get_weather', description: 'Weather of a city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } };

async function expectValidation(response: Response, message: string | RegExp): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.headers.get('x-amzn-errortype')).toMatch(/^ValidationException:/);
  const body = (await response.json()) as { message: string };
  if (typeof message === 'string') expect(body).toEqual({ message });
  else expect(body.message).toMatch(message);
}

async function streamEvents(response: Response): Promise<AwsStreamEvent[]> {
  expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
  const decoder = new AwsEventStreamDecoder();
  const events = decoder.push(new Uint8Array(await response.arrayBuffer()));
  expect(decoder.midMessage).toBe(false);
  return events;
}

describe('Converse simulator: answers', () => {
  it('answers text from the shared brain, with stopReason and usage as Converse words them', async () => {
    const response = await post(hi);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      output: { message: { role: 'assistant', content: [{ text: 'You said: Hello there' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: expect.any(Number), outputTokens: 4, totalTokens: expect.any(Number) },
      metrics: { latencyMs: 1 },
    });
  });

  it('calls a fitting tool with a toolUse block (stopReason tool_use); its result gets an answer that uses it', async () => {
    const ask = { role: 'user', content: [{ text: 'What is the weather in Paris? Use get_weather.' }] };
    const first = (await (await post({ messages: [ask], toolConfig: { tools: [weatherTool] } })).json()) as { output: { message: { content: Array<{ toolUse?: { toolUseId: string; name: string } }> } }; stopReason: string };
    expect(first.stopReason).toBe('tool_use');
    const toolUse = first.output.message.content.find((block) => block.toolUse)?.toolUse;
    expect(toolUse).toMatchObject({ toolUseId: expect.stringMatching(/^tooluse_/), name: 'get_weather' });
    const second = await post({
      messages: [ask, first.output.message, { role: 'user', content: [{ toolResult: { toolUseId: toolUse?.toolUseId, content: [{ json: { sky: 'sunny' } }] } }] }],
      toolConfig: { tools: [weatherTool] },
    });
    expect(await second.json()).toMatchObject({ output: { message: { content: [{ text: expect.stringContaining('sunny') }] } }, stopReason: 'end_turn' });
  });

  it('DeepSeek R1 shows its reasoning first, unsigned, counted in the output tokens; streamed as reasoningContent deltas', async () => {
    const model = 'us.deepseek.r1-v1:0';
    const body = (await (await post(hi, { model })).json()) as { output: { message: { content: unknown[] } }; usage: { outputTokens: number } };
    expect(body.output.message.content).toEqual([{ reasoningContent: { reasoningText: { text: 'The user wrote: "Hello there". I will say it back.' } } }, { text: 'You said: Hello there' }]);
    expect(body.usage.outputTokens).toBeGreaterThan(4);
    const events = await streamEvents(await post(hi, { model, stream: true }));
    const first = JSON.parse(events[1]?.data ?? '{}') as Record<string, unknown>;
    expect(first).toMatchObject({ contentBlockIndex: 0, delta: { reasoningContent: { text: 'The' } } });
  });

  it('Nova 2 with reasoningConfig enabled shows [REDACTED] reasoning; without it, none', async () => {
    const model = 'global.amazon.nova-2-lite-v1:0';
    const reasoned = (await (await post({ ...hi, additionalModelRequestFields: { reasoningConfig: { type: 'enabled', maxReasoningEffort: 'low' } } }, { model })).json()) as { output: { message: { content: unknown[] } } };
    expect(reasoned.output.message.content[0]).toEqual({ reasoningContent: { reasoningText: { text: '[REDACTED]' } } });
    const plain = (await (await post(hi, { model })).json()) as { output: { message: { content: unknown[] } } };
    expect(plain.output.message.content).toEqual([{ text: 'You said: Hello there' }]);
  });

  it('streams AWS event-stream messages: messageStart, deltas, contentBlockStop, messageStop, metadata — each with padding', async () => {
    const events = await streamEvents(await post(hi, { stream: true }));
    expect(events.map((event) => event.event)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);
    const payloads = events.map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(payloads.every((payload) => typeof payload['p'] === 'string')).toBe(true);
    expect(payloads[4]).toMatchObject({ stopReason: 'end_turn' });
  });
});

describe('Converse simulator: refuses what Bedrock refuses (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html)', () => {
  it('a conversation that starts with the assistant', async () => {
    await expectValidation(
      await post({ messages: [{ role: 'assistant', content: [{ text: 'Hi' }] }, { role: 'user', content: [{ text: 'Hello' }] }] }),
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
    );
  });

  it('two user turns in a row', async () => {
    await expectValidation(
      await post({ messages: [{ role: 'user', content: [{ text: 'a' }] }, { role: 'user', content: [{ text: 'b' }] }] }),
      'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
    );
  });

  it('a blank text block', async () => {
    await expectValidation(
      await post({ messages: [{ role: 'user', content: [{ text: ' ' }] }] }),
      'The text field in the ContentBlock object at messages.0.content.0 is blank. Add text to the text field, and try again.',
    );
  });

  it('tool blocks without a toolConfig', async () => {
    const messages = [
      { role: 'user', content: [{ text: 'weather?' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: {} } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'sunny' }] } }] },
    ];
    await expectValidation(await post({ messages }), 'The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  });

  it('more tool results than the previous turn made calls', async () => {
    const messages = [
      { role: 'user', content: [{ text: 'weather?' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: {} } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'sunny' }] } }, { toolResult: { toolUseId: 't2', content: [] } }] },
    ];
    await expectValidation(
      await post({ messages, toolConfig: { tools: [weatherTool] } }),
      'The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.',
    );
  });

  it('toolChoice any on Llama, which takes auto only', async () => {
    await expectValidation(
      await post({ ...hi, toolConfig: { tools: [weatherTool], toolChoice: { any: {} } } }),
      "This model doesn't support the toolConfig.toolChoice.any field. Remove toolConfig.toolChoice.any and try again.",
    );
  });

  it('an unknown field, and an additional field the model family does not take', async () => {
    await expectValidation(await post({ ...hi, temperature: 0.2 }), /^Malformed input request: #?: Unrecognized key\(s\) in object: 'temperature'/);
    await expectValidation(await post({ ...hi, additionalModelRequestFields: { top_k: 5 } }), /extraneous key \[top_k\] is not permitted/);
    expect((await post({ ...hi, additionalModelRequestFields: { inferenceConfig: { topK: 5 } } }, { model: 'amazon.nova-lite-v1:0' })).status).toBe(200);
  });

  it('a temperature above 1, in AWS’s constraint wording', async () => {
    await expectValidation(
      await post({ ...hi, inferenceConfig: { temperature: 1.5 } }),
      "1 validation error detected: Value '1.5' at 'inferenceConfig.temperature' failed to satisfy constraint: Member must have value less than or equal to 1",
    );
  });

  it('a body that is not JSON', async () => {
    const response = await post('{not json');
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toMatch(/^SerializationException:/);
  });
});

describe('Converse simulator: faults', () => {
  it('status:429 answers ThrottlingException in Bedrock’s shape', async () => {
    queuedFaults.push({ kind: 'status', status: 429 });
    const response = await post(hi);
    expect(response.status).toBe(429);
    expect(response.headers.get('x-amzn-errortype')).toMatch(/^ThrottlingException:/);
    expect(await response.json()).toEqual({ message: 'Too many requests, please wait before trying again.' });
  });

  it('stream-error ends a started stream with a throttlingException message', async () => {
    queuedFaults.push({ kind: 'stream-error' });
    const events = await streamEvents(await post(hi, { stream: true }));
    expect(events.at(-1)).toEqual({ event: 'throttlingException', data: JSON.stringify({ message: 'Too many requests, please wait before trying again.' }), exception: true });
  });

  it('malformed sends a message whose CRC fails', async () => {
    queuedFaults.push({ kind: 'malformed' });
    const response = await post(hi, { stream: true });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(() => new AwsEventStreamDecoder().push(bytes)).toThrow();
  });
});

describe('Converse simulator: requests the AWS SDK sent to the real Bedrock (test-fixtures/bedrock-converse, SOURCES.md)', () => {
  const fixtures = path.resolve(__dirname, '../../../../test-fixtures/bedrock-converse');
  const recorded = readdirSync(fixtures).flatMap((name) => {
    const entries = JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as Array<{ path: string; body: unknown; status: number }>;
    return entries.filter((entry) => entry.status === 200).map((entry) => [name, entry] as const);
  });

  it('there are recordings to replay', () => {
    expect(recorded.length).toBeGreaterThanOrEqual(5);
  });

  it.each(recorded)('%s is accepted, streamed or not, as Bedrock accepted it', async (_name, entry) => {
    const [, model = '', operation] = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(entry.path) ?? [];
    const response = await post(entry.body, { model: decodeURIComponent(model), stream: operation === 'converse-stream' });
    expect(response.status).toBe(200);
    if (operation === 'converse-stream') expect((await streamEvents(response)).at(-1)?.event).toBe('metadata');
  });
});
