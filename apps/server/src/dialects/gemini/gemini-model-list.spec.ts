import type { GeminiModel, Model } from '@chat-relay/contract';
import { ModelCatalogue, seedCatalogueModels, RelayError } from '@chat-relay/wire';
import { geminiModelPage, toGeminiModel } from './gemini-model-list';

const catalogue = new ModelCatalogue(seedCatalogueModels());
const model = (id: string, endpoints: Model['endpoints']): Model => ({ id, object: 'model', created: 0, owned_by: 'gemini', endpoints });
const named = (count: number): GeminiModel[] =>
  Array.from({ length: count }, (_, index) => ({ name: `models/m-${String(index).padStart(3, '0')}`, version: '001', displayName: 'm', description: 'm', supportedGenerationMethods: [] }));

describe('toGeminiModel', () => {
  it('describes a chat model with the catalogue’s facts, its methods those the Gemini routes serve it for', () => {
    expect(toGeminiModel(model('gemini-2.5-pro', ['chat']), catalogue.facts('gemini-2.5-pro'))).toEqual({
      name: 'models/gemini-2.5-pro',
      baseModelId: 'gemini-2.5-pro',
      version: '001',
      displayName: 'Gemini 2.5 Pro',
      description: 'Gemini 2.5 Pro, served by chat-relay.',
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      supportedGenerationMethods: ['generateContent', 'countTokens'],
      thinking: true,
    });
  });

  it('leaves out what nobody knows, and a model the Gemini routes cannot use', () => {
    expect(toGeminiModel(model('house-embedder', ['embeddings']), catalogue.facts('house-embedder'))).toEqual({
      name: 'models/house-embedder',
      baseModelId: 'house-embedder',
      version: '001',
      displayName: 'house-embedder',
      description: 'house-embedder, served by chat-relay.',
      supportedGenerationMethods: ['embedContent', 'batchEmbedContents'],
    });
    expect(toGeminiModel(model('dall-e-3', ['images']), catalogue.facts('dall-e-3'))).toBeUndefined();
  });
});

describe('geminiModelPage', () => {
  it('answers 50 by default, at most 1000, by name, a token only when more follow', () => {
    const models = named(1200).reverse();
    const first = geminiModelPage(models, {});
    expect(first.models).toHaveLength(50);
    expect(first.models[0]?.name).toBe('models/m-000');
    expect(geminiModelPage(models, { pageSize: 5000 }).models).toHaveLength(1000);
    expect(geminiModelPage(models, { pageSize: 0 }).models).toHaveLength(50);
    expect(geminiModelPage(named(3), { pageSize: 3 })).not.toHaveProperty('nextPageToken');
  });

  it('goes on after the page a token ends, even when models came or went meanwhile', () => {
    const first = geminiModelPage(named(5), { pageSize: 2 });
    expect(first.models.map((entry) => entry.name)).toEqual(['models/m-000', 'models/m-001']);
    const changed = named(5).filter((entry) => entry.name !== 'models/m-001');
    const next = geminiModelPage(changed, { pageSize: 2, pageToken: first.nextPageToken });
    expect(next.models.map((entry) => entry.name)).toEqual(['models/m-002', 'models/m-003']);
    expect(geminiModelPage(named(5), { pageSize: 2, pageToken: next.nextPageToken }).models.map((entry) => entry.name)).toEqual(['models/m-004']);
  });

  it('refuses a token it did not make: 400 naming pageToken', () => {
    for (const pageToken of ['nonsense', Buffer.from('x').toString('base64url')]) {
      expect(() => geminiModelPage(named(2), { pageToken })).toThrow(RelayError);
    }
  });
});
