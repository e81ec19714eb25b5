import { embeddingList, encodeFloat32Base64 } from './embedding-list';
import { embeddingsAsTheSdkReadsThem, readCassetteExchange } from './testing/media-fixtures';

describe('encodeFloat32Base64', () => {
  it('writes the recorded OpenAI vector back to the very bytes OpenAI sent (embeddings-base64.yaml)', async () => {
    const recorded = readCassetteExchange('embeddings-base64.yaml').response.parsed_body;
    const [vector] = await embeddingsAsTheSdkReadsThem(recorded);
    expect(vector).toHaveLength(128);
    const data = recorded['data'] as Array<{ embedding: string }>;
    expect(encodeFloat32Base64(vector ?? [])).toBe(data[0]?.embedding);
  });

  it('is little-endian float32, four bytes a number', () => {
    const bytes = Buffer.from(encodeFloat32Base64([1, -2.5]), 'base64');
    expect([...bytes]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0]);
  });
});

describe('embeddingList', () => {
  it('lists the vectors in order, as floats or base64, with the caller’s model', async () => {
    const vectors = [[0.1, 0.2], [0.3, -0.4]];
    const asFloats = embeddingList({ vectors, publicModel: 'my-embedder', encodingFormat: undefined, promptTokens: 3 });
    expect(asFloats).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: [0.3, -0.4] },
      ],
      model: 'my-embedder',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const decoded = await embeddingsAsTheSdkReadsThem(embeddingList({ vectors, publicModel: 'm', encodingFormat: 'base64', promptTokens: 0 }));
    decoded.forEach((vector, index) => vector.forEach((value, at) => expect(value).toBeCloseTo(vectors[index]?.[at] ?? NaN, 6)));
  });
});
