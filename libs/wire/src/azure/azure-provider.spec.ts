import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { MultipartRequest } from '../hub/endpoint-adapter';
import type { UpstreamTarget } from '../hub/upstream-adapter';
import { azureProvider } from '../providers/azure';
import { azureResourceRoot } from './azure-url';
import { buildAzureResponsesRequest } from './azure-responses';

// URL styles: https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle (v1) and
// https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference (deployments, `?api-version=`).
const ROOT = 'https://contoso.openai.azure.com';
const v1: UpstreamTarget = { baseUrl: ROOT };
const dated: UpstreamTarget = { baseUrl: ROOT, cloud: { apiVersion: '2024-10-21' } };
const KEY = 'azure-key-0123456789abcdef';
const ENTRA = JSON.stringify({ tenant_id: 'tenant', client_id: 'app', client_secret: 'shh-secret' });
const chatRequest: ChatCompletionRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
const form: MultipartRequest = { fields: [['model', 'whisper']], files: [] };

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the azure provider lost a capability');
  return value;
}
const chat = required(azureProvider.chat);
const json = required(azureProvider.json);
const multipart = required(azureProvider.multipart);

/** Each route's request on a channel of each style, the deployment `prod-4o`. */
function urlsOf(channel: UpstreamTarget): Record<string, string> {
  const common = { channel, key: KEY, upstreamModel: 'prod-4o' };
  const jsonUrl = (route: keyof typeof json) => json[route]?.buildRequest({ ...common, request: { model: 'gpt-4o', input: 'x', prompt: 'x' } }).url;
  const formUrl = (route: keyof typeof multipart) => multipart[route]?.buildRequest({ ...common, request: form }).url;
  return {
    chat: chat.buildRequest({ ...common, request: chatRequest }).url,
    completions: jsonUrl('completions') ?? '',
    embeddings: jsonUrl('embeddings') ?? '',
    images_generations: jsonUrl('images_generations') ?? '',
    audio_speech: jsonUrl('audio_speech') ?? '',
    images_edits: formUrl('images_edits') ?? '',
    audio_transcriptions: formUrl('audio_transcriptions') ?? '',
    audio_translations: formUrl('audio_translations') ?? '',
    responses: azureProvider.native?.responses?.buildRequest({ ...common, body: { model: 'gpt-4o', input: 'x' }, headers: {}, stream: false }).url ?? '',
  };
}

describe('Azure OpenAI URLs', () => {
  it('v1 API (no api-version): {root}/openai/v1/<route>, every route, the deployment in the body', () => {
    expect(urlsOf(v1)).toEqual({
      chat: `${ROOT}/openai/v1/chat/completions`,
      completions: `${ROOT}/openai/v1/completions`,
      embeddings: `${ROOT}/openai/v1/embeddings`,
      images_generations: `${ROOT}/openai/v1/images/generations`,
      audio_speech: `${ROOT}/openai/v1/audio/speech`,
      images_edits: `${ROOT}/openai/v1/images/edits`,
      audio_transcriptions: `${ROOT}/openai/v1/audio/transcriptions`,
      audio_translations: `${ROOT}/openai/v1/audio/translations`,
      responses: `${ROOT}/openai/v1/responses`,
    });
    const body = chat.buildRequest({ channel: v1, key: KEY, request: chatRequest, upstreamModel: 'prod-4o' }).body;
    expect(JSON.parse(body.toString()).model).toBe('prod-4o');
  });

  it('deployments API (an api-version set): {root}/openai/deployments/{deployment}/<route>?api-version=; the Responses API stays on v1', () => {
    const dep = `${ROOT}/openai/deployments/prod-4o`;
    const version = '?api-version=2024-10-21';
    expect(urlsOf(dated)).toEqual({
      chat: `${dep}/chat/completions${version}`,
      completions: `${dep}/completions${version}`,
      embeddings: `${dep}/embeddings${version}`,
      images_generations: `${dep}/images/generations${version}`,
      audio_speech: `${dep}/audio/speech${version}`,
      images_edits: `${dep}/images/edits${version}`,
      audio_transcriptions: `${dep}/audio/transcriptions${version}`,
      audio_translations: `${dep}/audio/translations${version}`,
      responses: `${ROOT}/openai/v1/responses`,
    });
  });

  it('takes the endpoint as admins paste it (trailing slash, the OpenAI client base …/openai/v1/), and encodes a deployment name', () => {
    expect(azureResourceRoot('https://r.cognitiveservices.azure.com/')).toBe('https://r.cognitiveservices.azure.com');
    expect(azureResourceRoot('https://r.services.ai.azure.com/openai/v1/')).toBe('https://r.services.ai.azure.com');
    expect(azureResourceRoot('https://r.openai.azure.com/openai')).toBe('https://r.openai.azure.com');
    const url = chat.buildRequest({ channel: { ...dated, baseUrl: `${ROOT}/openai/v1/` }, key: KEY, request: chatRequest, upstreamModel: 'a b/c' }).url;
    expect(url).toBe(`${ROOT}/openai/deployments/a%20b%2Fc/chat/completions?api-version=2024-10-21`);
  });

  it('sends the stored-response calls to the v1 API with the api-key', () => {
    const request = buildAzureResponsesRequest({ channel: dated, key: KEY, method: 'GET', path: '/responses/resp_1?stream=true' });
    expect(request).toEqual({ method: 'GET', url: `${ROOT}/openai/v1/responses/resp_1?stream=true`, headers: { 'api-key': KEY, accept: 'text/event-stream' }, body: '' });
  });
});

describe('Azure OpenAI key headers', () => {
  const headersOf = (key: string) => ({
    chat: chat.buildRequest({ channel: v1, key, request: { ...chatRequest, stream: true }, upstreamModel: 'd' }).headers,
    embeddings: json.embeddings?.buildRequest({ channel: dated, key, request: { input: 'x' }, upstreamModel: 'd' }).headers,
    transcriptions: multipart.audio_transcriptions?.buildRequest({ channel: dated, key, request: form, upstreamModel: 'd' }).headers,
    responses: azureProvider.native?.responses?.buildRequest({ channel: v1, key, body: { input: 'x' }, headers: {}, stream: false, upstreamModel: 'd' }).headers,
    models: azureProvider.modelList?.headers(key),
    probe: azureProvider.probe.headers?.(key),
  });

  it('a plain key goes as api-key, never as Authorization: Bearer', () => {
    const all = headersOf(KEY);
    expect(all.chat).toEqual({ 'api-key': KEY, 'content-type': 'application/json', accept: 'text/event-stream' });
    for (const headers of Object.values(all)) {
      expect(headers?.['api-key']).toBe(KEY);
      expect(Object.keys(headers ?? {}).map((name) => name.toLowerCase())).not.toContain('authorization');
    }
  });

  it('an Entra service principal writes no key header: the server mints the bearer and adds it', () => {
    for (const headers of Object.values(headersOf(ENTRA))) {
      expect(Object.keys(headers ?? {}).filter((name) => ['api-key', 'authorization'].includes(name.toLowerCase()))).toEqual([]);
      expect(JSON.stringify(headers)).not.toContain('shh-secret');
    }
  });
});

describe('Azure OpenAI native dialects', () => {
  it('speaks the Responses API on the v1 API; a channel pinned to an api-version is bridged (when the server passes the channel)', () => {
    const nativeFor = azureProvider.nativeFor as (dialect: 'responses' | 'messages', model: string, channel?: UpstreamTarget) => unknown;
    expect(nativeFor('responses', 'd', v1)).toBe(azureProvider.native?.responses);
    expect(nativeFor('responses', 'd')).toBe(azureProvider.native?.responses);
    expect(nativeFor('responses', 'd', dated)).toBeUndefined();
    expect(nativeFor('messages', 'd', v1)).toBeUndefined();
  });
});
