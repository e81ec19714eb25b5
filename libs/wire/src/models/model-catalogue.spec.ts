import { candidateIds, ModelCatalogue, seedCatalogueModels } from './model-catalogue';
import { claudeRefusesTemperatureWithTopP, familyOfName } from './model-family-rules';
import { readModelsDev } from './read-models-dev';
import version from './models-dev/version.json';

describe('the model catalogue', () => {
  const catalogue = new ModelCatalogue(seedCatalogueModels());

  it('ships the seed of models.dev for the current first-party models, with limits and list prices', () => {
    expect(version.source).toBe('https://github.com/anomalyco/models.dev');
    expect(seedCatalogueModels().length).toBeGreaterThan(100);
    const gpt4o = catalogue.facts('gpt-4o');
    expect(gpt4o).toMatchObject({ family: 'openai', maxOutputTokens: 16_384, contextWindow: 128_000, reasoning: false });
    expect(gpt4o.cost).toMatchObject({ input: 2.5, output: 10 });
    for (const model of ['gpt-5', 'gemini-3.1-pro-preview', 'claude-sonnet-4-5', 'claude-opus-4-7', 'claude-haiku-4-5']) {
      expect(catalogue.entry(model)?.cost?.input).toBeGreaterThan(0);
    }
    expect(catalogue.facts('claude-sonnet-4-5')).toMatchObject({ family: 'anthropic', maxOutputTokens: 64_000, reasoning: true });
    expect(catalogue.facts('gemini-2.5-pro')).toMatchObject({ family: 'gemini', maxOutputTokens: 65_536 });
  });

  it('finds dated, prefixed and Bedrock-style names under the model they name', () => {
    expect(candidateIds('claude-sonnet-4-5-20250929')).toContain('claude-sonnet-4-5');
    expect(catalogue.facts('models/gemini-2.5-flash').entry?.id).toBe('gemini-2.5-flash');
    expect(catalogue.facts('openai/gpt-4.1').entry?.id).toBe('gpt-4.1');
    expect(catalogue.facts('gpt-4o-2024-08-06').entry?.id).toBe('gpt-4o-2024-08-06');
    expect(catalogue.facts('gpt-4o-mini-2024-07-18').entry?.id).toBe('gpt-4o-mini');
    expect(catalogue.facts('anthropic.claude-sonnet-4-5-20250929-v1:0').entry?.id).toBe('claude-sonnet-4-5-20250929');
    expect(catalogue.facts('claude-opus-4-5@20251101').entry?.id).toBe('claude-opus-4-5');
    // Bedrock's inference profiles, whatever the geography (issue 31).
    for (const profile of ['us', 'eu', 'apac', 'jp', 'us-gov', 'global']) {
      expect(catalogue.facts(`${profile}.anthropic.claude-sonnet-4-5-20250929-v1:0`).entry?.id).toBe('claude-sonnet-4-5-20250929');
    }
  });

  it('knows an unknown model only by its family, with no limits or price', () => {
    const facts = catalogue.facts('gpt-9-ultra');
    expect(facts).toMatchObject({ entry: undefined, family: 'openai', maxOutputTokens: undefined, cost: undefined });
    expect(facts.params.top_k).toBe(false);
    expect(catalogue.facts('my-local-llama').family).toBe('other');
    expect(catalogue.facts('my-local-llama').params).toMatchObject({ top_k: true, temperature: true });
  });

  it("applies each family's rules where the dataset says nothing", () => {
    expect(catalogue.facts('gpt-4o').params).toMatchObject({ top_k: false, temperature: true, top_p: true });
    // Reasoning models take only the default sampling parameters.
    expect(catalogue.facts('o3').params).toMatchObject({ top_k: false, temperature: false, top_p: false, penalties: false, logprobs: false });
    expect(catalogue.facts('claude-sonnet-4-5').params).toMatchObject({ top_k: true, temperature_with_top_p: false, penalties: false });
    expect(catalogue.facts('claude-sonnet-4-20250514').params.temperature_with_top_p).toBe(true);
    expect(catalogue.facts('gemini-2.5-pro').params).toMatchObject({ top_k: true, temperature_with_top_p: true });
  });

  it('tells which Claude models refuse temperature with top_p (Opus 4.1 and every model from 4.5 on)', () => {
    for (const model of ['claude-opus-4-1-20250805', 'claude-sonnet-4-5', 'claude-haiku-4-5-20251001', 'claude-opus-4-7', 'claude-sonnet-5', 'claude-4.5-sonnet']) {
      expect([model, claudeRefusesTemperatureWithTopP(model)]).toEqual([model, true]);
    }
    for (const model of ['claude-opus-4-20250514', 'claude-sonnet-4-0', 'claude-3-7-sonnet-20250219', 'claude-3-5-haiku-20241022']) {
      expect([model, claudeRefusesTemperatureWithTopP(model)]).toEqual([model, false]);
    }
  });

  it("merges an operator's override over the dataset's entry, and a glob over every model it matches", () => {
    const overridden = new ModelCatalogue(seedCatalogueModels(), [
      { id: 'gpt-4o', max_output_tokens: 4096 },
      { id: 'my-*', family: 'openai', cost: { input: 1, output: 2 } },
      { id: 'claude-sonnet-4-5', params: { temperature_with_top_p: true } },
    ]);
    expect(overridden.facts('gpt-4o')).toMatchObject({ maxOutputTokens: 4096, contextWindow: 128_000, cost: { input: 2.5 } });
    expect(overridden.facts('gpt-4o-2024-05-13').maxOutputTokens).toBe(4096);
    expect(overridden.facts('my-model')).toMatchObject({ family: 'openai', cost: { input: 1, output: 2 } });
    expect(overridden.facts('claude-sonnet-4-5-20250929').params.temperature_with_top_p).toBe(true);
    const listed = overridden.list();
    expect(listed.find((entry) => entry.id === 'gpt-4o')).toMatchObject({ source: 'override', max_output_tokens: 4096, context_window: 128_000 });
    expect(listed.find((entry) => entry.id === 'my-*')?.source).toBe('override');
    expect(listed.find((entry) => entry.id === 'gpt-4.1')?.source).toBe('seed');
  });

  it('reads a models.dev api.json, skipping what it cannot read instead of failing the whole refresh', () => {
    const read = readModelsDev({
      openai: { id: 'openai', models: { good: { id: 'gpt-x', limit: { context: 1000, output: 100 }, cost: { input: 1, output: 2 }, temperature: false }, bad: { name: 'no id' } } },
      mistral: { id: 'mistral', models: { m: { id: 'mistral-x', limit: 'weird' } } },
    });
    expect(read.skipped).toBe(1);
    expect(read.models).toEqual([
      { id: 'gpt-x', provider: 'openai', family: 'openai', context_window: 1000, max_output_tokens: 100, params: { temperature: false }, cost: { input: 1, output: 2 } },
      { id: 'mistral-x', provider: 'mistral', family: 'other' },
    ]);
    expect(() => readModelsDev({ data: [] })).toThrow(/not a models.dev catalogue/);
    expect(familyOfName('o4-mini')).toBe('openai');
  });
});
