import type { ModelList } from '../providers/channel-provider';
import { azureProvider } from '../providers/azure';
import { azureModelList } from './azure-model-list';

const named = () => null;

/** `url` with the channel's cloud settings, as the server passes them once it knows them. */
const urlOf = azureModelList.url as (baseUrl: string, cursor: string | undefined, cloud?: { apiVersion?: string }) => string;

describe('the Azure OpenAI model list', () => {
  it('is GET {root}/openai/v1/models on the v1 API, GET {root}/openai/models?api-version= with one', () => {
    expect(urlOf('https://r.openai.azure.com/', undefined)).toBe('https://r.openai.azure.com/openai/v1/models');
    expect(urlOf('https://r.openai.azure.com', undefined, { apiVersion: '2024-10-21' })).toBe('https://r.openai.azure.com/openai/models?api-version=2024-10-21');
    expect(urlOf('https://r.openai.azure.com', undefined, { apiVersion: ' ' })).toBe('https://r.openai.azure.com/openai/v1/models');
  });

  it("tests a channel with the v1 list, which every resource serves, and Azure's api-key", () => {
    const probe = azureProvider.probe;
    expect([probe.name, probe.url('https://r.openai.azure.com/openai/v1/')]).toEqual(['GET /models', 'https://r.openai.azure.com/openai/v1/models']);
    expect(probe.headers?.('k')).toEqual({ 'api-key': 'k', accept: 'application/json' });
  });

  it('reads the base models with what Azure says they do, leaving out what serves no inference', () => {
    // The shape of https://learn.microsoft.com/en-us/rest/api/azureopenai/models/list
    const page = {
      object: 'list',
      data: [
        { id: 'gpt-4o-2024-08-06', object: 'model', capabilities: { chat_completion: true, completion: false, embeddings: false, fine_tune: false, inference: true }, lifecycle_status: 'generally-available' },
        { id: 'text-embedding-3-small', object: 'model', capabilities: { chat_completion: false, completion: false, embeddings: true, inference: true } },
        { id: 'dall-e-3-3.0', object: 'model', capabilities: { chat_completion: false, completion: false, embeddings: false, inference: true } },
        { id: 'gpt-35-turbo-0613-ft-base', object: 'model', capabilities: { fine_tune: true, inference: false } },
        { id: 'bare' },
      ],
    };
    expect((azureModelList as ModelList).parse(page, named)).toEqual({
      success: true,
      data: {
        models: [
          { id: 'gpt-4o-2024-08-06', endpoints: ['chat'] },
          { id: 'text-embedding-3-small', endpoints: ['embeddings'] },
          { id: 'dall-e-3-3.0', endpoints: null },
          { id: 'bare', endpoints: null },
        ],
      },
    });
    expect(azureModelList.parse({ error: { code: '401' } }, named).success).toBe(false);
  });
});
