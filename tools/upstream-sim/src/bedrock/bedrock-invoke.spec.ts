import { postAnthropic } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { anthropicEventOf, awsEventsOf, callBedrock, modelPath } from './bedrock-test-client';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const haiku = 'anthropic.claude-3-haiku-20240307-v1:0';
const sonnetProfile = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const tools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
const invokeBody = (extra: Record<string, unknown> = {}) => ({
  anthropic_version: 'bedrock-2023-05-31',
  max_tokens: 200,
  system: 'Be brief.',
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools,
  ...extra,
});

async function validation(response: Response): Promise<[number, string | null, string]> {
  return [response.status, response.headers.get('x-amzn-errortype'), ((await response.json()) as { message: string }).message];
}

describe('Bedrock validates a Claude body before Claude does', () => {
  // https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
  it.each(['model', 'stream'])('refuses `%s` in the body (the model is in the URL, streaming in the operation)', async (key) => {
    const response = await callBedrock(sim, { path: modelPath(haiku, 'invoke'), body: invokeBody({ [key]: key === 'model' ? 'claude-3-haiku' : false }) });
    expect(await validation(response)).toEqual([400, 'ValidationException', `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`]);
  });

  it('needs anthropic_version bedrock-2023-05-31', async () => {
    const { anthropic_version: _version, ...rest } = invokeBody();
    expect((await validation(await callBedrock(sim, { path: modelPath(haiku, 'invoke'), body: rest })))[2]).toContain('required key [anthropic_version] not found');
    expect((await callBedrock(sim, { path: modelPath(haiku, 'invoke'), body: invokeBody({ anthropic_version: '2023-06-01' }) })).status).toBe(400);
  });

  it('refuses a beta it does not take with "invalid beta flag", and takes one it does', async () => {
    const refused = await callBedrock(sim, { path: modelPath(haiku, 'invoke'), body: invokeBody({ anthropic_beta: ['claude-code-20250219'] }) });
    expect(await validation(refused)).toEqual([400, 'ValidationException', 'invalid beta flag']);
    expect((await callBedrock(sim, { path: modelPath(haiku, 'invoke'), body: invokeBody({ anthropic_beta: ['token-efficient-tools-2025-02-19'] }) })).status).toBe(200);
  });

  it('refuses Claude 4+ by its foundation model id on demand, naming the inference profile fix', async () => {
    const response = await callBedrock(sim, { path: modelPath('anthropic.claude-sonnet-4-5-20250929-v1:0', 'invoke'), body: invokeBody() });
    expect(await validation(response)).toEqual([
      400,
      'ValidationException',
      'Invocation of model ID anthropic.claude-sonnet-4-5-20250929-v1:0 with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.',
    ]);
    expect((await callBedrock(sim, { path: modelPath(sonnetProfile, 'invoke'), body: invokeBody() })).status).toBe(200);
  });

  it('passes on Claude\'s own refusals as ValidationExceptions (Sonnet 4.5 takes one sampler)', async () => {
    const response = await callBedrock(sim, { path: modelPath(sonnetProfile, 'invoke'), body: invokeBody({ temperature: 0.5, top_p: 0.9 }) });
    expect(await validation(response)).toEqual([400, 'ValidationException', '`temperature` and `top_p` cannot both be specified for this model. Please use only one.']);
  });

  it('does not invoke another provider\'s model through the Claude body', async () => {
    expect((await validation(await callBedrock(sim, { path: modelPath('meta.llama3-1-70b-instruct-v1:0', 'invoke'), body: invokeBody() })))[0]).toBe(400);
  });
});

describe('Bedrock answers as the Anthropic brain does', () => {
  it('answers InvokeModel with the Messages API\'s message for the same conversation, token counts in its headers', async () => {
    const { anthropic_version: _version, ...messages } = invokeBody();
    const direct = (await (await postAnthropic(sim, { ...messages, model: 'claude-sonnet-4-5-20250929' })).json()) as { content: unknown; usage: { input_tokens: number; output_tokens: number } };
    const response = await callBedrock(sim, { path: modelPath(sonnetProfile, 'invoke'), body: invokeBody() });
    const message = (await response.json()) as { id: string; model: string; content: unknown; usage: unknown };
    expect(message.content).toEqual(direct.content);
    expect(message.model).toBe('claude-sonnet-4-5-20250929');
    expect(message.id).toMatch(/^msg_bdrk_/);
    expect(response.headers.get('x-amzn-bedrock-input-token-count')).toBe(String(direct.usage.input_tokens));
    expect(response.headers.get('x-amzn-bedrock-output-token-count')).toBe(String(direct.usage.output_tokens));
  });

  it('streams the same answer as AWS event-stream chunks of Anthropic events, no ping, metrics on the last', async () => {
    const whole = (await (await callBedrock(sim, { path: modelPath(sonnetProfile, 'invoke'), body: invokeBody() })).json()) as { content: Array<{ type: string; name?: string }>; usage: { output_tokens: number } };
    const response = await callBedrock(sim, { path: modelPath(sonnetProfile, 'invoke-with-response-stream'), body: invokeBody() });
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const messages = await awsEventsOf(response);
    expect(new Set(messages.map((message) => message.event))).toEqual(new Set(['chunk']));
    const events = messages.map(anthropicEventOf);
    expect(events.map((event) => event['type'])).not.toContain('ping');
    expect(events[0]?.['type']).toBe('message_start');
    const toolStart = events.find((event) => event['type'] === 'content_block_start' && (event['content_block'] as { type: string }).type === 'tool_use');
    expect((toolStart?.['content_block'] as { name: string }).name).toBe(whole.content.find((block) => block.type === 'tool_use')?.name);
    expect(events.at(-1)).toEqual({
      type: 'message_stop',
      'amazon-bedrock-invocationMetrics': expect.objectContaining({ outputTokenCount: whole.usage.output_tokens, inputTokenCount: expect.any(Number) as number }),
    });
  });
});

describe('the simulator\'s faults on Bedrock', () => {
  it('plays status:429 as a ThrottlingException', async () => {
    sim.failNext({ kind: 'status', status: 429 });
    expect(await validation(await callBedrock(sim, { path: modelPath(haiku, 'invoke'), body: invokeBody() }))).toEqual([429, 'ThrottlingException', 'Too many requests, please wait before trying again.']);
  });

  it('plays stream-error as a throttlingException message mid-stream', async () => {
    sim.failNext({ kind: 'stream-error' });
    const messages = await awsEventsOf(await callBedrock(sim, { path: modelPath(haiku, 'invoke-with-response-stream'), body: invokeBody() }));
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.at(-1)).toEqual({ event: 'throttlingException', data: '{"message":"Too many tokens, please wait before trying again."}', exception: true });
    expect(messages.slice(0, -1).every((message) => message.event === 'chunk')).toBe(true);
  });

  it('plays malformed as a chunk whose bytes are not JSON, after good ones', async () => {
    sim.failNext({ kind: 'malformed' });
    const messages = await awsEventsOf(await callBedrock(sim, { path: modelPath(haiku, 'invoke-with-response-stream'), body: invokeBody() }));
    expect(anthropicEventOf(messages[0] ?? { event: '', data: '' })['type']).toBe('message_start');
    expect(() => anthropicEventOf(messages.at(-1) ?? { event: '', data: '' })).toThrow(SyntaxError);
  });

  it('cuts a stream without its last message', async () => {
    sim.failNext({ kind: 'cut' });
    const response = await callBedrock(sim, { path: modelPath(haiku, 'invoke-with-response-stream'), body: invokeBody() });
    await expect(awsEventsOf(response)).rejects.toThrow();
  });
});

describe('CountTokens and the model list', () => {
  // https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html
  const countOf = (body: object) => ({ input: { invokeModel: { body: Buffer.from(JSON.stringify(body)).toString('base64') } } });

  it('counts what InvokeModel reports as input, for a foundation model', async () => {
    const invoked = (await (await callBedrock(sim, { path: modelPath(haiku, 'invoke'), body: invokeBody() })).json()) as { usage: { input_tokens: number } };
    const response = await callBedrock(sim, { path: modelPath(haiku, 'count-tokens'), body: countOf(invokeBody()) });
    expect(await response.json()).toEqual({ inputTokens: invoked.usage.input_tokens });
  });

  it('refuses an inference profile\'s id, and a body InvokeModel would refuse', async () => {
    expect((await callBedrock(sim, { path: modelPath(sonnetProfile, 'count-tokens'), body: countOf(invokeBody()) })).status).toBe(400);
    const { max_tokens: _max, ...noMax } = invokeBody();
    expect((await callBedrock(sim, { path: modelPath(haiku, 'count-tokens'), body: countOf(noMax) })).status).toBe(400);
  });

  it('lists foundation models, filtered by provider', async () => {
    const list = (await (await callBedrock(sim, { method: 'GET', path: '/foundation-models?byProvider=Anthropic' })).json()) as { modelSummaries: Array<{ modelId: string; providerName: string }> };
    expect(list.modelSummaries.length).toBeGreaterThan(2);
    expect(list.modelSummaries.every((model) => model.providerName === 'Anthropic')).toBe(true);
  });

  it('routes Converse to its handler, behind the same signature check (an empty conversation refused as Bedrock does)', async () => {
    const response = await callBedrock(sim, { path: modelPath(haiku, 'converse'), body: { messages: [] } });
    expect([response.status, response.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([400, 'ValidationException']);
  });
});
