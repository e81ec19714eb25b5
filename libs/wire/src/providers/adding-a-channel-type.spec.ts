// docs/guides/adding-a-channel-type.md, walked through for a throwaway type `acme` — in memory,
// the real catalogue and registry untouched: a row and a module are all the lookups need.
import { CHANNEL_TYPE_CATALOGUE, channelTypeTables, type ChannelTypeRow } from '@chat-relay/contract';
import { z } from 'zod';
import { openAiAdapter } from '../openai-chat/upstream/openai-adapter';
import { openAiEmbeddingsAdapter } from '../openai-endpoints/openai-passthrough-adapters';
import { CHANNEL_PROVIDERS, modelListProbe, providerLookups, type ChannelProvider, type ModelList } from './index';

// Step 1: the catalogue row.
const acmeRow: ChannelTypeRow = {
  label: 'Acme',
  hint: 'Acme AI, base URL https://api.acme.example/v2',
  endpoints: ['chat', 'embeddings'],
  defaultEndpoints: ['chat'],
};

// Step 2: the provider module. Acme speaks OpenAI's chat with its own key header, and lists models its own way.
const acmeHeaders = (key: string): Record<string, string> => ({ 'x-acme-key': key, accept: 'application/json' });

const AcmeModelListSchema = z.object({ models: z.array(z.object({ slug: z.string().min(1) })), next_page: z.string().nullable() });

const acmeModelList: ModelList = {
  url: (baseUrl, cursor) => `${baseUrl}/models${cursor === undefined ? '' : `?page=${encodeURIComponent(cursor)}`}`,
  headers: acmeHeaders,
  parse: (json) =>
    AcmeModelListSchema.transform((list) => ({
      models: list.models.map((model) => ({ id: model.slug, endpoints: null })),
      next: list.next_page ?? undefined,
    })).safeParse(json),
  mapErrorResponse: (status, text, secrets) => openAiAdapter.mapErrorResponse(status, text, secrets),
};

const acmeProvider: ChannelProvider = {
  chat: {
    ...openAiAdapter,
    buildRequest: (args) => {
      const request = openAiAdapter.buildRequest(args);
      const { authorization: _bearer, ...headers } = request.headers;
      return { ...request, headers: { ...headers, 'x-acme-key': args.key } };
    },
  },
  json: { embeddings: openAiEmbeddingsAdapter },
  modelList: acmeModelList,
  probe: modelListProbe(acmeModelList),
};

// Step 3 (the simulator handler with recorded fixtures) lives in tools/upstream-sim; here, an answer as recorded.
const recordedModelList = { models: [{ slug: 'acme-large' }, { slug: 'acme-embed' }], next_page: 'p2' };

const catalogue = { ...CHANNEL_TYPE_CATALOGUE, acme: acmeRow };
const providers = { ...CHANNEL_PROVIDERS, acme: acmeProvider };

describe('adding a channel type: a catalogue row and a provider module', () => {
  it('gives the type a place in the enum and the endpoint tables', () => {
    const tables = channelTypeTables(catalogue);
    expect(tables.schema.options.at(-1)).toBe('acme');
    expect(tables.schema.parse('acme')).toBe('acme');
    expect(tables.servable.acme).toEqual(['chat', 'embeddings']);
    expect(tables.defaults.acme).toEqual(['chat']);
    expect(tables.servable.openai).toBe(CHANNEL_TYPE_CATALOGUE.openai.endpoints);
  });

  const lookups = providerLookups(catalogue, providers);
  const channel = { baseUrl: 'https://api.acme.example/v2' };

  it('gives it chat and its other endpoints through the lookups the server makes', () => {
    const call = lookups.chatAdapterOf('acme').buildRequest({
      channel,
      key: 'acme-key',
      request: { model: 'acme-large', messages: [{ role: 'user', content: 'Hi' }] },
      upstreamModel: 'acme-large',
    });
    expect(call.url).toBe('https://api.acme.example/v2/chat/completions');
    expect(call.headers).toEqual({ 'x-acme-key': 'acme-key', 'content-type': 'application/json', accept: 'application/json' });
    expect(lookups.jsonEndpointAdapter('embeddings', 'acme')).toBe(openAiEmbeddingsAdapter);
    expect(lookups.jsonEndpointAdapter('completions', 'acme')).toBeUndefined();
    expect(lookups.searchAdapterFor('acme')).toBeUndefined();
  });

  it('gives it a model list: its URL, its headers, and its answer parsed', () => {
    const list = lookups.modelListOf('acme');
    expect(list?.url(channel.baseUrl, undefined)).toBe('https://api.acme.example/v2/models');
    expect(list?.url(channel.baseUrl, 'p2')).toBe('https://api.acme.example/v2/models?page=p2');
    expect(list?.headers('acme-key')).toEqual({ 'x-acme-key': 'acme-key', accept: 'application/json' });
    expect(list?.parse(recordedModelList, () => null)).toEqual({
      success: true,
      data: { models: [{ id: 'acme-large', endpoints: null }, { id: 'acme-embed', endpoints: null }], next: 'p2' },
    });
  });

  it('gives it a health probe: its model list, read in its dialect', () => {
    const probe = lookups.healthProbeOf('acme');
    expect({ name: probe.name, method: probe.method, url: probe.url(channel.baseUrl), headers: probe.headers?.('k') }).toEqual({
      name: 'GET /models',
      method: 'GET',
      url: 'https://api.acme.example/v2/models',
      headers: { 'x-acme-key': 'k', accept: 'application/json' },
    });
    expect(probe.isAnswer(recordedModelList)).toBe(true);
    expect(probe.isAnswer({ data: [] })).toBe(false);
    expect(probe.mapErrorResponse?.(401, '{"error":{"message":"bad key"}}', ['k']).keyRejected).toBe(true);
  });

  it('refuses a row without a module, or a module offering what its row does not serve', () => {
    expect(() => providerLookups(catalogue, CHANNEL_PROVIDERS as typeof providers)).toThrow('acme has a catalogue row but no provider module');
    const searching = { ...acmeRow, endpoints: ['chat', 'embeddings', 'search'] as const };
    expect(() => providerLookups({ ...catalogue, acme: searching }, providers)).toThrow('acme serves search by its catalogue row, but its provider module has no adapter for it');
  });
});
