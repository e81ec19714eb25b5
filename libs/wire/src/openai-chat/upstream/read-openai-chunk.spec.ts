import { readOpenAiChunk } from './read-openai-chunk';

function read(chunk: unknown) {
  const delivered: string[] = [];
  const facts = readOpenAiChunk(chunk, (text) => delivered.push(text));
  return { facts, delivered };
}

describe('readOpenAiChunk', () => {
  it('reads choices, finish reasons, content and tool-call arguments in order', () => {
    const { facts, delivered } = read({
      choices: [
        { index: 0, delta: { content: 'Hel' }, finish_reason: null },
        { index: 1, delta: { tool_calls: [{ index: 0, function: { name: 'f', arguments: '{"a"' } }, { index: 1 }] }, finish_reason: 'tool_calls' },
      ],
      usage: null,
    });
    expect(facts).toEqual({ choiceCount: 2, finished: true, usage: null, error: undefined });
    expect(delivered).toEqual(['Hel', '{"a"']);
  });

  it('a custom tool call’s input is delivered like arguments (what is counted when the usage never comes)', () => {
    const { facts, delivered } = read({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, type: 'custom', custom: { name: 'apply_patch', input: '*** Begin' } }] }, finish_reason: null }] });
    expect(facts?.choiceCount).toBe(1);
    expect(delivered).toEqual(['*** Begin']);
    expect(read({ choices: [{ delta: { tool_calls: [{ index: 0, custom: { input: 3 } }] } }] }).facts).toBeUndefined();
  });

  it('reads the usage chunk', () => {
    const { facts } = read({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } });
    expect(facts?.usage).toEqual({ promptTokens: 5, completionTokens: 7 });
    expect(facts?.choiceCount).toBe(0);
  });

  it('reads the cached part of the prompt, and cache writes as OpenAI-compatible relays send them', () => {
    const usage = (details: unknown) => read({ choices: [], usage: { prompt_tokens: 50, completion_tokens: 7, prompt_tokens_details: details } }).facts?.usage;
    expect(usage({ cached_tokens: 30, audio_tokens: 0 })).toEqual({ promptTokens: 50, completionTokens: 7, cacheReadTokens: 30 });
    expect(usage({ cached_tokens: 30, cache_write_tokens: 12 })).toEqual({ promptTokens: 50, completionTokens: 7, cacheReadTokens: 30, cacheWriteTokens: 12 });
    expect(usage({ cached_tokens: 0 })).toEqual({ promptTokens: 50, completionTokens: 7 });
    // A detail the relay cannot read leaves the chunk readable and the whole prompt priced as input.
    for (const odd of [null, 'x', [], { cached_tokens: '30' }, { cached_tokens: null }, { cached_tokens: -3 }]) {
      expect(usage(odd)).toEqual({ promptTokens: 50, completionTokens: 7 });
    }
  });

  it('reports an in-stream error, as an object or a string', () => {
    expect(read({ error: { message: 'boom' } }).facts?.error).toEqual({ message: 'boom' });
    expect(read({ error: 'boom' }).facts?.error).toBe('boom');
  });

  it.each([
    ['not an object', [1, 2]],
    ['null', null],
    ['choices not an array', { choices: {} }],
    ['a choice not an object', { choices: ['x'] }],
    ['a non-numeric index', { choices: [{ index: '0' }] }],
    ['a non-string finish reason', { choices: [{ finish_reason: 1 }] }],
    ['a non-string content', { choices: [{ delta: { content: 5 } }] }],
    ['tool_calls not an array', { choices: [{ delta: { tool_calls: {} } }] }],
    ['non-string arguments', { choices: [{ delta: { tool_calls: [{ function: { arguments: {} } }] } }] }],
    ['usage without counts', { choices: [], usage: { total_tokens: 3 } }],
    ['an error that is a number', { error: 3 }],
  ])('refuses a chunk with %s', (_case, chunk) => {
    expect(read(chunk).facts).toBeUndefined();
  });

  it('accepts what OpenAI-compatible servers leave out: index, delta, choices, usage', () => {
    expect(read({ choices: [{}] }).facts).toEqual({ choiceCount: 1, finished: false, usage: undefined, error: undefined });
    expect(read({}).facts?.choiceCount).toBe(0);
  });
});
