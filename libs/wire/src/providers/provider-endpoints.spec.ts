import { DEFAULT_CHANNEL_ENDPOINTS, type ChannelType, type Endpoint } from '@chat-relay/contract';
import { jsonEndpointAdapter, multipartEndpointAdapter, musicTaskProvider, videoTaskProvider, type JsonEndpointRoute, type MultipartEndpointRoute } from '../index';

const CHANNEL_TYPES: readonly ChannelType[] = ['openai', 'anthropic', 'gemini'];

const JSON_ROUTES: ReadonlyArray<readonly [JsonEndpointRoute, Endpoint]> = [
  ['completions', 'completions'],
  ['embeddings', 'embeddings'],
  ['rerank', 'rerank'],
  ['moderations', 'moderations'],
  ['images_generations', 'images'],
  ['audio_speech', 'audio_speech'],
];
const MULTIPART_ROUTES: ReadonlyArray<readonly [MultipartEndpointRoute, Endpoint]> = [
  ['images_edits', 'images'],
  ['audio_transcriptions', 'audio_transcriptions'],
  ['audio_translations', 'audio_transcriptions'],
];

describe('the endpoint adapters by route and channel type', () => {
  const served = (channelType: ChannelType) => [
    ...JSON_ROUTES.filter(([route]) => jsonEndpointAdapter(route, channelType)).map(([route]) => route),
    ...MULTIPART_ROUTES.filter(([route]) => multipartEndpointAdapter(route, channelType)).map(([route]) => route),
  ];

  it('serves every route on OpenAI-compatible channels, completions on Anthropic, and completions, embeddings and image generation on Gemini', () => {
    expect(served('openai')).toEqual([...JSON_ROUTES, ...MULTIPART_ROUTES].map(([route]) => route));
    expect(served('anthropic')).toEqual(['completions']);
    expect(served('gemini')).toEqual(['completions', 'embeddings', 'images_generations']);
  });

  it('names the endpoint each route is routed and priced by', () => {
    for (const channelType of CHANNEL_TYPES) {
      for (const [route, endpoint] of JSON_ROUTES) expect(jsonEndpointAdapter(route, channelType)?.endpoint ?? endpoint).toBe(endpoint);
      for (const [route, endpoint] of MULTIPART_ROUTES) expect(multipartEndpointAdapter(route, channelType)?.endpoint ?? endpoint).toBe(endpoint);
    }
  });

  it('has an adapter (or a task provider) for every endpoint a channel type serves by default (image edits aside on Gemini)', () => {
    for (const channelType of CHANNEL_TYPES) {
      for (const endpoint of DEFAULT_CHANNEL_ENDPOINTS[channelType].filter((name) => name !== 'chat')) {
        const adapters = [
          ...JSON_ROUTES.filter(([, of]) => of === endpoint).map(([route]) => jsonEndpointAdapter(route, channelType)),
          ...MULTIPART_ROUTES.filter(([, of]) => of === endpoint).map(([route]) => multipartEndpointAdapter(route, channelType)),
          endpoint === 'videos' ? videoTaskProvider(channelType) : undefined,
          endpoint === 'music' ? musicTaskProvider(channelType) : undefined,
        ];
        expect({ channelType, endpoint, served: adapters.some(Boolean) }).toEqual({ channelType, endpoint, served: true });
      }
    }
  });

  it('streams completions only; answers speech as bytes only', () => {
    for (const channelType of CHANNEL_TYPES) {
      for (const [route] of JSON_ROUTES) {
        const adapter = jsonEndpointAdapter(route, channelType);
        if (!adapter) continue;
        expect({ route, streams: adapter.createStreamTransformer !== undefined }).toEqual({ route, streams: route === 'completions' });
        expect({ route, binary: adapter.binary !== undefined }).toEqual({ route, binary: route === 'audio_speech' });
      }
    }
  });
});
