import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { NativeBuildArgs } from '../hub/native-adapter';
import { bedrockClaudeAdapter } from './bedrock-claude-adapter';
import { bedrockClaudeNativeAdapter } from './bedrock-claude-native-adapter';
import { bedrockTokenCounter } from './bedrock-count-tokens';
import { claudeNameOf, foundationModelIdOf, isBedrockClaude, isInferenceProfileId } from './bedrock-model-id';
import { bedrockControlPlaneUrl, bedrockModelList } from './bedrock-model-list';

// Shapes: https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
const base = 'https://bedrock-runtime.us-east-1.amazonaws.com';
const accessKey = 'AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const apiKey = 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl';
const profile = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

const chat = (overrides: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'claude',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
  max_tokens: 100,
  ...overrides,
});

const native = (overrides: Partial<NativeBuildArgs> = {}): NativeBuildArgs => ({
  channel: { baseUrl: base, cloud: { region: 'us-east-1' } },
  key: accessKey,
  body: {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: 'Hi' }],
    thinking: { type: 'enabled', budget_tokens: 2048 },
    stream: true,
  },
  upstreamModel: profile,
  headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14, claude-code-20250219,context-1m-2025-08-07' },
  stream: true,
  ...overrides,
});

describe('Bedrock model ids', () => {
  it.each([
    ['anthropic.claude-3-5-haiku-20241022-v1:0', true, false],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', true, true],
    ['global.anthropic.claude-opus-4-5-20251101-v1:0', true, true],
    ['us-gov.anthropic.claude-3-7-sonnet-20250219-v1:0', true, true],
    ['arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0', true, true],
    ['meta.llama3-1-70b-instruct-v1:0', false, false],
    ['us.amazon.nova-pro-v1:0', false, true],
  ])('%s: Claude %s, an inference profile %s', (id, claude, profileId) => {
    expect([isBedrockClaude(id), isInferenceProfileId(id)]).toEqual([claude, profileId]);
  });

  it('names the foundation model behind a profile or an ARN', () => {
    expect(foundationModelIdOf(profile)).toBe('anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(foundationModelIdOf('arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0')).toBe('anthropic.claude-3-haiku-20240307-v1:0');
    expect(foundationModelIdOf('anthropic.claude-3-haiku-20240307-v1:0')).toBe('anthropic.claude-3-haiku-20240307-v1:0');
  });
});

describe('chat through the hub, as InvokeModel', () => {
  it('posts the Messages body without model and stream, with Bedrock\'s anthropic_version, to /model/{id}/invoke', () => {
    const request = bedrockClaudeAdapter.buildRequest({ channel: { baseUrl: `${base}/` }, key: accessKey, request: chat(), upstreamModel: profile });
    expect(request.url).toBe(`${base}/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke`);
    expect(request.body).toBe('{"anthropic_version":"bedrock-2023-05-31","messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]}],"max_tokens":100,"system":"Be brief."}');
    // Access keys: nothing here, the server signs the bytes.
    expect(request.headers).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
    expect(request.framing).toBeUndefined();
  });

  it('streams from /invoke-with-response-stream, framed as AWS\'s event stream, a Bedrock API key as a bearer', () => {
    const request = bedrockClaudeAdapter.buildRequest({ channel: { baseUrl: base }, key: apiKey, request: chat({ stream: true }), upstreamModel: profile });
    expect(request.url).toBe(`${base}/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream`);
    expect(request.framing).toBe('aws-eventstream');
    expect(request.headers).toEqual({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' });
    expect(JSON.parse(request.body.toString())).not.toHaveProperty('stream');
  });

  it('escapes an ARN into one path segment', () => {
    const arn = 'arn:aws:bedrock:eu-central-1:000000000:application-inference-profile/abc123';
    expect(bedrockClaudeAdapter.buildRequest({ channel: { baseUrl: base }, key: accessKey, request: chat(), upstreamModel: arn }).url).toBe(
      `${base}/model/arn%3Aaws%3Abedrock%3Aeu-central-1%3A000000000%3Aapplication-inference-profile%2Fabc123/invoke`,
    );
  });

  it('defaults max_tokens by Claude\'s own name behind the Bedrock id, as on Anthropic (Sonnet 4.5: 64000)', () => {
    const request = bedrockClaudeAdapter.buildRequest({ channel: { baseUrl: base }, key: accessKey, request: chat({ max_tokens: undefined }), upstreamModel: profile });
    expect((JSON.parse(request.body.toString()) as { max_tokens: number }).max_tokens).toBe(64000);
    expect(claudeNameOf('arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123')).toBe('arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123');
    expect(claudeNameOf('anthropic.claude-opus-4-20250514-v1:0')).toBe('claude-opus-4-20250514');
  });

  it('leaves service_tier out of the body and says so (InvokeModel takes a tier in a header)', () => {
    const request = bedrockClaudeAdapter.buildRequest({ channel: { baseUrl: base }, key: accessKey, request: chat({ service_tier: 'default' }), upstreamModel: profile });
    expect(JSON.parse(request.body.toString())).not.toHaveProperty('service_tier');
    expect(request.warnings).toEqual([expect.objectContaining({ kind: 'dropped', field: 'service_tier', from: 'standard_only' })]);
  });

  it('refuses what the Messages API cannot express, as the anthropic adapter does', () => {
    expect(() => bedrockClaudeAdapter.buildRequest({ channel: { baseUrl: base }, key: accessKey, request: chat({ n: 2 }), upstreamModel: profile })).toThrow(/'n' is not supported/);
  });
});

describe('a Messages caller passed through, as InvokeModel', () => {
  it('keeps every field of the caller\'s body but model and stream, betas Bedrock takes in anthropic_beta, the others dropped with a warning', () => {
    const request = bedrockClaudeNativeAdapter.buildRequest(native());
    expect(request.url).toBe(`${base}/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream`);
    expect(request.framing).toBe('aws-eventstream');
    expect(request.body).toBe(
      '{"anthropic_version":"bedrock-2023-05-31","anthropic_beta":["interleaved-thinking-2025-05-14","context-1m-2025-08-07"],' +
        '"max_tokens":1024,"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],' +
        '"messages":[{"role":"user","content":"Hi"}],"thinking":{"type":"enabled","budget_tokens":2048}}',
    );
    expect(request.warnings).toEqual([{ kind: 'dropped', field: 'anthropic-beta', reason: expect.stringContaining('invalid beta flag') as string, from: 'claude-code-20250219' }]);
    expect(request.headers).not.toHaveProperty('anthropic-version');
  });

  it('writes no anthropic_beta when the caller sent none Bedrock takes, and calls /invoke unstreamed', () => {
    const request = bedrockClaudeNativeAdapter.buildRequest(native({ headers: {}, stream: false }));
    expect(request.url.endsWith('/invoke')).toBe(true);
    expect(JSON.parse(request.body.toString())).not.toHaveProperty('anthropic_beta');
    expect(request.warnings).toBeUndefined();
  });

  it('merges a body\'s own anthropic_beta (a Bedrock-mode client\'s) with the header\'s, each once', () => {
    const body = { ...native().body, anthropic_beta: ['context-1m-2025-08-07', 'mcp-servers-2025-12-04'] };
    const request = bedrockClaudeNativeAdapter.buildRequest(native({ body }));
    expect((JSON.parse(request.body.toString()) as { anthropic_beta: string[] }).anthropic_beta).toEqual(['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14']);
    expect(request.warnings?.map((warning) => warning.from)).toEqual(['mcp-servers-2025-12-04', 'claude-code-20250219']);
  });
});

describe('count tokens', () => {
  // https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html
  it('wraps the InvokeModel body, base64, for the foundation model; max_tokens 1 when the count request has none', () => {
    const { max_tokens: _maxTokens, stream: _stream, ...countBody } = native().body;
    const request = bedrockTokenCounter.buildRequest(native({ body: countBody, stream: false, headers: {} }));
    expect(request.url).toBe(`${base}/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/count-tokens`);
    const sent = JSON.parse(request.body.toString()) as { input: { invokeModel: { body: string } } };
    expect(Object.keys(sent)).toEqual(['input']);
    expect(JSON.parse(Buffer.from(sent.input.invokeModel.body, 'base64').toString('utf8'))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      system: countBody.system,
      messages: countBody.messages,
      thinking: countBody.thinking,
      max_tokens: 1,
    });
  });

  it('answers in Anthropic\'s words: {inputTokens} → {input_tokens}', () => {
    expect(bedrockTokenCounter.convertResponse?.({ inputTokens: 42 })).toEqual({ input_tokens: 42 });
    expect(bedrockTokenCounter.convertResponse?.({ message: 'x' })).toEqual({ message: 'x' });
  });
});

describe('the model list', () => {
  it.each([
    ['https://bedrock-runtime.us-east-1.amazonaws.com', 'https://bedrock.us-east-1.amazonaws.com/foundation-models'],
    ['https://bedrock-runtime-fips.us-east-1.amazonaws.com/', 'https://bedrock-fips.us-east-1.amazonaws.com/foundation-models'],
    ['https://vpce-0abc-runtime.vpce.amazonaws.com', 'https://vpce-0abc-runtime.vpce.amazonaws.com/foundation-models'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/foundation-models'],
  ])('GET the control plane of %s: %s', (baseUrl, url) => {
    expect(bedrockModelList.url(baseUrl, undefined)).toBe(url);
    expect(`${bedrockControlPlaneUrl(baseUrl)}/foundation-models`).toBe(url);
  });

  it('lists text models callable on demand or through a profile, not embeddings, images or provisioned-only variants', () => {
    const page = bedrockModelList.parse(
      {
        modelSummaries: [
          { modelId: 'anthropic.claude-3-haiku-20240307-v1:0', inputModalities: ['TEXT', 'IMAGE'], outputModalities: ['TEXT'], responseStreamingSupported: true, inferenceTypesSupported: ['ON_DEMAND'] },
          { modelId: 'anthropic.claude-3-haiku-20240307-v1:0:48k', outputModalities: ['TEXT'], inferenceTypesSupported: ['PROVISIONED'] },
          { modelId: 'anthropic.claude-sonnet-4-5-20250929-v1:0', outputModalities: ['TEXT'], inferenceTypesSupported: ['INFERENCE_PROFILE'] },
          { modelId: 'amazon.titan-embed-text-v2:0', outputModalities: ['EMBEDDING'], inferenceTypesSupported: ['ON_DEMAND'] },
        ],
      },
      () => null,
    );
    expect(page.success && page.data.models.map((model) => model.id)).toEqual(['anthropic.claude-3-haiku-20240307-v1:0', 'anthropic.claude-sonnet-4-5-20250929-v1:0']);
    expect(bedrockModelList.parse({ data: [] }, () => null).success).toBe(false);
  });
});
