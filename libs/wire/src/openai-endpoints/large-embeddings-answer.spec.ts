import { LARGE_ANSWER_CHARS, tailObject } from './endpoint-common';
import { openAiEmbeddingsAdapter } from './openai-passthrough-adapters';

/** 16 vectors of 1,536 numbers: about half a megabyte, as text-embedding-3-small answers a RAG batch. */
function largeAnswer(model: string, usage: unknown, spaced = false): string {
  const data = Array.from({ length: 16 }, (_, index) => ({
    object: 'embedding',
    index,
    embedding: Array.from({ length: 1536 }, (_, at) => Math.sin(index * 1536 + at)),
  }));
  const body = { object: 'list', data, model, usage };
  return spaced ? JSON.stringify(body, null, 1) : JSON.stringify(body);
}

const context = (publicModel: string) => ({ request: { model: publicModel, input: ['a', 'b'] }, publicModel, contentType: 'application/json' });

describe('a large embeddings answer on the way through', () => {
  it('reads usage from the end, sends the text as it came, and parses the vectors only when asked', () => {
    const text = largeAnswer('text-embedding-3-small', { prompt_tokens: 812, total_tokens: 812 });
    expect(text.length).toBeGreaterThan(LARGE_ANSWER_CHARS);
    const parse = jest.spyOn(JSON, 'parse');
    const answer = openAiEmbeddingsAdapter.convertResponse(text, context('text-embedding-3-small'));
    const parsedWhole = parse.mock.calls.some(([parsed]) => parsed === text);
    parse.mockRestore();
    expect(parsedWhole).toBe(false);
    if (!answer.ok || answer.kind !== 'json') throw new Error('expected a JSON answer');
    expect(answer.text).toBe(text);
    expect(answer.usage).toEqual({ promptTokens: 812, completionTokens: 0, units: 0 });
    expect(answer.body).toEqual(JSON.parse(text));
  });

  it('is parsed whole when its model must be rewritten, and the model is the caller\'s', () => {
    const text = largeAnswer('text-embedding-3-small', { prompt_tokens: 5, total_tokens: 5 });
    const answer = openAiEmbeddingsAdapter.convertResponse(text, context('house-embedder'));
    if (!answer.ok || answer.kind !== 'json') throw new Error('expected a JSON answer');
    expect(answer.body['model']).toBe('house-embedder');
    expect(JSON.parse(answer.text ?? '').model).toBe('house-embedder');
    expect(answer.usage.promptTokens).toBe(5);
  });

  it('without usage at its end falls back to counting the inputs', () => {
    const answer = openAiEmbeddingsAdapter.convertResponse(largeAnswer('text-embedding-3-small', undefined), context('text-embedding-3-small'));
    if (!answer.ok) throw new Error('expected an answer');
    expect(answer.usage).toMatchObject({ estimated: true, uncountedText: 'a\nb' });
  });

  it('a large text that is not one object is still refused as malformed (the relay retries elsewhere)', () => {
    const text = `${largeAnswer('text-embedding-3-small', { prompt_tokens: 5, total_tokens: 5 })}garbage`;
    expect(openAiEmbeddingsAdapter.convertResponse(text, context('text-embedding-3-small')).ok).toBe(false);
  });
});

describe('tailObject', () => {
  it('finds the last key\'s object, spaced or not, nested objects included', () => {
    expect(tailObject('{"data":[1,2],"usage" : { "prompt_tokens": 3, "details": {"cached": 1} }}', 'usage')).toEqual({
      prompt_tokens: 3,
      details: { cached: 1 },
    });
  });

  it('is undefined when the key is absent, not followed by an object, or the object never closes', () => {
    expect(tailObject('{"data":[]}', 'usage')).toBeUndefined();
    expect(tailObject('{"usage":null}', 'usage')).toBeUndefined();
    expect(tailObject('{"usage":{"prompt_tokens":3', 'usage')).toBeUndefined();
  });
});
