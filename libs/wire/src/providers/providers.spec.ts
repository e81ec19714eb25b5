import { CHANNEL_TYPE_CATALOGUE, ChannelTypeSchema, type ChannelTypeRow } from '@chat-relay/contract';
import { anthropicAdapter } from '../anthropic-messages/upstream/anthropic-adapter';
import { anthropicNativeAdapter } from '../anthropic-messages/native/anthropic-native-adapter';
import { bedrockClaudeAdapter } from '../bedrock/bedrock-claude-adapter';
import { bedrockClaudeNativeAdapter } from '../bedrock/bedrock-claude-native-adapter';
import { geminiAdapter } from '../gemini/upstream/gemini-adapter';
import { geminiNativeAdapter } from '../gemini/native/gemini-native-adapter';
import { openAiAdapter } from '../openai-chat/upstream/openai-adapter';
import { openaiResponsesNativeAdapter } from '../openai-responses/native/openai-responses-native-adapter';
import {
  CHANNEL_PROVIDERS,
  chatAdapterOf,
  healthProbeOf,
  modelListOf,
  nativeAdapterFor,
  nativeAdapterOf,
  nativeChannelType,
  providerMismatches,
  sendsHubAsIs,
  tokenCounterOf,
  type ChannelProvider,
} from './index';

describe('the provider modules and the catalogue', () => {
  it('match both ways: every catalogue row has a provider module, every module a row, each offering what its row serves', () => {
    expect(Object.keys(CHANNEL_PROVIDERS).sort()).toEqual(Object.keys(CHANNEL_TYPE_CATALOGUE).sort());
    expect(providerMismatches(CHANNEL_TYPE_CATALOGUE, CHANNEL_PROVIDERS)).toEqual([]);
  });

  it('names a row without a module, a module without a row, and an adapter its row does not serve', () => {
    const row: ChannelTypeRow = { label: 'Extra', hint: 'extra', endpoints: ['search'], defaultEndpoints: ['search'] };
    const probe: ChannelProvider['probe'] = { name: 'GET /', method: 'GET', url: (baseUrl) => baseUrl, isAnswer: () => true };
    expect(providerMismatches({ ...CHANNEL_TYPE_CATALOGUE, extra: row }, CHANNEL_PROVIDERS)).toEqual(['extra has a catalogue row but no provider module']);
    expect(providerMismatches(CHANNEL_TYPE_CATALOGUE, { ...CHANNEL_PROVIDERS, extra: { probe } })).toEqual(['extra has a provider module but no catalogue row']);
    expect(providerMismatches({ extra: row }, { extra: { chat: openAiAdapter, probe } })).toEqual([
      'extra offers chat, which its catalogue row does not serve',
      'extra serves search by its catalogue row, but its provider module has no adapter for it',
    ]);
  });
});

describe('the lookups the server makes', () => {
  it('give each model provider its hub adapter, and refuse chat of a type without', () => {
    expect(chatAdapterOf('openai')).toBe(openAiAdapter);
    expect(chatAdapterOf('anthropic')).toBe(anthropicAdapter);
    expect(chatAdapterOf('gemini')).toBe(geminiAdapter);
    for (const type of ['suno', 'tavily', 'searxng'] as const) expect(() => chatAdapterOf(type)).toThrow(`a ${type} channel speaks no chat`);
  });

  it('give a bedrock channel its Claude adapters by the upstream model (InvokeModel), and no Messages passthrough for other models', () => {
    const claude = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    expect(chatAdapterOf('bedrock', claude)).toBe(bedrockClaudeAdapter);
    expect(chatAdapterOf('bedrock')).toBe(bedrockClaudeAdapter);
    expect(nativeAdapterFor('bedrock', 'messages', claude)).toBe(bedrockClaudeNativeAdapter);
    expect(nativeAdapterFor('bedrock', 'messages', 'meta.llama3-1-70b-instruct-v1:0')).toBeUndefined();
    expect(nativeAdapterFor('bedrock', 'generate_content', claude)).toBeUndefined();
    expect(healthProbeOf('bedrock').url('https://bedrock-runtime.eu-west-1.amazonaws.com')).toBe('https://bedrock.eu-west-1.amazonaws.com/foundation-models');
  });

  it('name the one type speaking each native dialect', () => {
    expect([nativeChannelType('messages'), nativeChannelType('generate_content'), nativeChannelType('responses')]).toEqual(['anthropic', 'gemini', 'openai']);
    expect(nativeAdapterOf('messages')).toBe(anthropicNativeAdapter);
    expect(nativeAdapterOf('generate_content')).toBe(geminiNativeAdapter);
    expect(nativeAdapterOf('responses')).toBe(openaiResponsesNativeAdapter);
  });

  it('list models of the model providers only, count tokens on Anthropic, Gemini, Bedrock and Vertex (each its own dialect), send the hub as it is to OpenAI and Azure only', () => {
    expect(ChannelTypeSchema.options.filter((type) => modelListOf(type))).toEqual(['openai', 'anthropic', 'gemini', 'azure', 'bedrock', 'vertex']);
    expect(ChannelTypeSchema.options.filter((type) => tokenCounterOf(type))).toEqual(['anthropic', 'gemini', 'bedrock', 'vertex']);
    expect([tokenCounterOf('anthropic')?.dialect, tokenCounterOf('gemini')?.dialect, tokenCounterOf('bedrock')?.dialect]).toEqual(['messages', 'generate_content', 'messages']);
    expect(ChannelTypeSchema.options.filter(sendsHubAsIs)).toEqual(['openai', 'azure']);
  });

  it('probe every type: model providers by their model list, the others by their own free request', () => {
    expect(Object.fromEntries(ChannelTypeSchema.options.map((type) => [type, healthProbeOf(type).name]))).toEqual({
      openai: 'GET /models',
      anthropic: 'GET /models',
      gemini: 'GET /models',
      azure: 'GET /models',
      bedrock: 'GET /models',
      vertex: 'GET /models',
      suno: 'POST /suno/fetch',
      tavily: 'POST /search',
      searxng: 'GET /search',
    });
    expect(healthProbeOf('anthropic').headers?.('k')).toEqual({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01', accept: 'application/json' });
    expect(healthProbeOf('gemini').url('https://g/v1beta')).toBe('https://g/v1beta/models?pageSize=1000');
    expect(healthProbeOf('searxng').headers).toBeUndefined();
    // Vertex: Model Garden's list of Google's models, no key header (the server adds the bearer).
    expect(healthProbeOf('vertex').url('https://aiplatform.googleapis.com')).toBe('https://aiplatform.googleapis.com/v1beta1/publishers/google/models?pageSize=1000');
    expect(healthProbeOf('vertex').headers?.('{"type":"service_account"}')).toEqual({ accept: 'application/json' });
  });
});

describe('model list pages, parsed without I/O', () => {
  const named = () => null;

  it('reads Anthropic pages with their cursor, and Gemini models by their methods', () => {
    expect(modelListOf('anthropic')?.parse({ data: [{ id: 'claude' }], has_more: true, last_id: 'claude' }, named)).toEqual({
      success: true,
      data: { models: [{ id: 'claude', endpoints: null }], next: 'claude' },
    });
    const gemini = modelListOf('gemini')?.parse({ models: [{ name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] }, { name: 'models/aqa' }] }, named);
    expect(gemini).toEqual({ success: true, data: { models: [{ id: 'text-embedding-004', endpoints: ['embeddings'] }], next: undefined } });
  });

  it('takes a bare array from OpenAI-compatible servers, and refuses what is no list', () => {
    expect(modelListOf('openai')?.parse([{ id: 'm' }], named)).toEqual({ success: true, data: { models: [{ id: 'm', endpoints: null }] } });
    expect(modelListOf('openai')?.parse({ object: 'error' }, named).success).toBe(false);
  });
});
