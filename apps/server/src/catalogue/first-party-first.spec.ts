import { readModelsDev } from '@chat-relay/wire';
import { firstPartyFirst } from './first-party-first';

describe('firstPartyFirst', () => {
  it("lets the maker's entry win an id a reseller listed first", () => {
    const json = {
      'github-copilot': { id: 'github-copilot', models: { 'gpt-4o': { id: 'gpt-4o', limit: { context: 64_000, output: 4096 } } } },
      groq: { id: 'groq', models: { 'llama-3.3-70b': { id: 'llama-3.3-70b', limit: { context: 131_072, output: 32_768 } } } },
      openai: { id: 'openai', models: { 'gpt-4o': { id: 'gpt-4o', limit: { context: 128_000, output: 16_384 } } } },
    };
    expect(readModelsDev(json).models.find((model) => model.id === 'gpt-4o')?.max_output_tokens).toBe(4096);
    const read = readModelsDev(firstPartyFirst(json)).models;
    expect(read.find((model) => model.id === 'gpt-4o')).toMatchObject({ provider: 'openai', max_output_tokens: 16_384 });
    // The others are kept, after.
    expect(read.map((model) => model.id)).toEqual(['gpt-4o', 'llama-3.3-70b']);
  });

  it('leaves what is not an object to the reader', () => {
    expect(firstPartyFirst([1])).toEqual([1]);
    expect(firstPartyFirst(null)).toBeNull();
  });
});
