import type { ChatCompletionChunk } from '@chat-relay/contract';
import { chatAdapterOf, modelListOf, nativeAdapterFor, tokenCounterOf, type StreamStep } from '@chat-relay/wire';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { acceptedBedrockKeys, awsEventsOf, sendSigned, testAccessKey } from './bedrock-test-client';

// The relay's own Bedrock adapters (libs/wire) against the simulator: what one builds, the other takes; what one answers, the other reads.
let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: acceptedBedrockKeys });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const key = `${testAccessKey.accessKeyId}:${testAccessKey.secretAccessKey}`;
const profile = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const channel = () => ({ baseUrl: sim.origin, cloud: { region: 'us-east-1' } });
const weatherTool = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const options = { publicModel: 'claude-via-bedrock', callerWantsUsage: true, secrets: [key] };

const bodyText = (body: string | Buffer | object): string => (typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body));

describe('the relay\'s Bedrock adapters against the simulator', () => {
  it('streams a hub chat with a tool call through InvokeModelWithResponseStream, usage and all', async () => {
    const adapter = chatAdapterOf('bedrock', profile);
    const request = adapter.buildRequest({
      channel: channel(),
      key,
      request: { model: 'claude-via-bedrock', messages: [{ role: 'user', content: 'What is the weather in Paris?' }], tools: [weatherTool], stream: true },
      upstreamModel: profile,
    });
    expect(request.framing).toBe('aws-eventstream');
    const response = await sendSigned({ ...request, body: bodyText(request.body) }, testAccessKey);
    expect(response.status).toBe(200);
    const transformer = adapter.createStreamTransformer(options);
    const steps: StreamStep[] = [...(await awsEventsOf(response)).flatMap((event) => transformer.transform(event)), ...transformer.finish()];
    const chunks = steps.flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json) as ChatCompletionChunk] : []));
    expect(chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []).find((call) => call.function?.name)?.function?.name).toBe('get_weather');
    expect(transformer.complete).toBe(true);
    expect(transformer.usage?.promptTokens).toBeGreaterThan(0);
  });

  it('passes a Messages caller through, a beta Bedrock refuses left out so the call succeeds', async () => {
    const adapter = nativeAdapterFor('bedrock', 'messages', profile);
    if (!adapter) throw new Error('no Messages passthrough for Claude on Bedrock');
    const request = adapter.buildRequest({
      channel: channel(),
      key,
      body: { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] },
      upstreamModel: profile,
      headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14' },
      stream: false,
    });
    const response = await sendSigned({ ...request, body: bodyText(request.body) }, testAccessKey);
    expect(response.status).toBe(200);
    const answer = adapter.convertResponse(await response.text(), 'claude-sonnet-4-5');
    expect(answer.ok && answer.body['model']).toBe('claude-sonnet-4-5');
    expect((sim.requests[0]?.body as { anthropic_beta: string[] }).anthropic_beta).toEqual(['interleaved-thinking-2025-05-14']);
  });

  it('counts tokens with CountTokens, answered in Anthropic\'s words', async () => {
    const counter = tokenCounterOf('bedrock');
    if (!counter?.convertResponse) throw new Error('no Bedrock token counter');
    const request = counter.buildRequest({ channel: channel(), key, body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi there' }] }, upstreamModel: profile, headers: {}, stream: false });
    const response = await sendSigned({ ...request, body: bodyText(request.body) }, testAccessKey);
    expect(counter.convertResponse(await response.json())).toEqual({ input_tokens: expect.any(Number) as number });
  });

  it('lists the simulator\'s text models through the model list, and maps a throttled call to a retryable failure', async () => {
    const list = modelListOf('bedrock');
    if (!list) throw new Error('no Bedrock model list');
    const page = list.parse(await (await sendSigned({ method: 'GET', url: list.url(sim.origin, undefined), headers: list.headers(key) }, testAccessKey)).json(), () => null);
    expect(page.success && page.data.models.map((model) => model.id)).toContain('anthropic.claude-sonnet-4-5-20250929-v1:0');
    sim.failNext({ kind: 'status', status: 429 });
    const adapter = chatAdapterOf('bedrock', profile);
    const request = adapter.buildRequest({ channel: channel(), key, request: { model: 'x', messages: [{ role: 'user', content: 'Hi' }] }, upstreamModel: profile });
    const response = await sendSigned({ ...request, body: bodyText(request.body) }, testAccessKey);
    expect(adapter.mapErrorResponse(response.status, await response.text(), [key])).toMatchObject({ retryable: true, channelFault: true, error: { code: 'ThrottlingException' } });
  });
});
