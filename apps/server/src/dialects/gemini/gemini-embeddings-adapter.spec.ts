import { jsonEndpointAdapter } from '@chat-relay/wire';
import { embeddingsAdapterForGemini } from './gemini-embeddings-adapter';

const args = (request: Record<string, unknown>) => ({ channel: { baseUrl: 'https://api.example.com/v1' }, key: 'sk-key', request, upstreamModel: 'text-embedding-3-small', rawBody: Buffer.from(JSON.stringify(request)) });

describe('embeddingsAdapterForGemini', () => {
  it('gives a gemini channel its own embeddings adapter, which takes task_type', () => {
    expect(embeddingsAdapterForGemini('gemini')).toBe(jsonEndpointAdapter('embeddings', 'gemini'));
  });

  it('sends another channel the request without task_type, and says so in the warnings', () => {
    const adapter = embeddingsAdapterForGemini('openai');
    const built = adapter?.buildRequest(args({ model: 'text-embedding-3-small', input: ['x'], encoding_format: 'float', task_type: 'RETRIEVAL_QUERY' }));
    expect(JSON.parse(String(built?.body))).toEqual({ model: 'text-embedding-3-small', input: ['x'], encoding_format: 'float' });
    expect(built?.warnings).toEqual([expect.objectContaining({ kind: 'dropped', field: 'taskType', from: 'RETRIEVAL_QUERY' })]);
  });

  it('leaves a request without task_type as it is, and a type that does not embed without an adapter', () => {
    const request = { model: 'text-embedding-3-small', input: ['x'] };
    expect(embeddingsAdapterForGemini('openai')?.buildRequest(args(request)).warnings).toBeUndefined();
    expect(embeddingsAdapterForGemini('tavily')).toBeUndefined();
  });
});
