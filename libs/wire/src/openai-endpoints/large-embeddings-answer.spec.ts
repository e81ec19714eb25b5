import { LARGE_ANSWER_BYTES, tailObject } from './endpoint-common';
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

/** As the relay reads an answer: from its bytes when the adapter can, else as text. */
const convert = (text: string, publicModel: string) =>
  openAiEmbeddingsAdapter.convertLargeResponse?.(Buffer.from(text), context(publicModel)) ?? openAiEmbeddingsAdapter.convertResponse(text, context(publicModel));

describe('a large embeddings answer on the way through', () => {
  it('reads usage from the end, sends the bytes as they came, and parses the vectors only when asked', () => {
    const text = largeAnswer('text-embedding-3-small', { prompt_tokens: 812, total_tokens: 812 }, true);
    const bytes = Buffer.from(text);
    expect(bytes.length).toBeGreaterThan(LARGE_ANSWER_BYTES);
    const parse = jest.spyOn(JSON, 'parse');
    const decode = jest.spyOn(bytes, 'toString');
    const answer = openAiEmbeddingsAdapter.convertLargeResponse?.(bytes, context('text-embedding-3-small'));
    const parsedLong = parse.mock.calls.some(([parsed]) => parsed.length > 1_000);
    const decodedLong = decode.mock.results.some(({ value }) => typeof value === 'string' && value.length > 1_000);
    parse.mockRestore();
    decode.mockRestore();
    expect(parsedLong).toBe(false);
    expect(decodedLong).toBe(false);
    if (!answer?.ok || answer.kind !== 'json') throw new Error('expected a JSON answer');
    expect(answer.text).toBe(bytes);
    expect(answer.usage).toEqual({ promptTokens: 812, completionTokens: 0, units: 0 });
    expect(answer.body).toEqual(JSON.parse(text));
  });

  it('is passed through compact as well as indented, the model named with or without spaces', () => {
    for (const spaced of [false, true]) {
      const bytes = Buffer.from(largeAnswer('text-embedding-3-small', { prompt_tokens: 9, total_tokens: 9 }, spaced));
      const answer = openAiEmbeddingsAdapter.convertLargeResponse?.(bytes, context('text-embedding-3-small'));
      if (!answer?.ok || answer.kind !== 'json') throw new Error(`expected a JSON answer (spaced: ${spaced})`);
      expect(answer.text).toBe(bytes);
      expect(answer.usage.promptTokens).toBe(9);
    }
  });

  it('names the model only by the top-level key: a "model" string among the data is not it', () => {
    const body = JSON.stringify({ object: 'list', data: [{ tags: ['model', 'text-embedding-3-small'], embedding: Array(20_000).fill(0.25) }], model: 'other', usage: { prompt_tokens: 2 } });
    expect(openAiEmbeddingsAdapter.convertLargeResponse?.(Buffer.from(body), context('text-embedding-3-small'))).toBeUndefined();
    const named = JSON.stringify({ model: 'text-embedding-3-small', data: [{ tags: ['model'], embedding: Array(20_000).fill(0.25) }], usage: { prompt_tokens: 2 } });
    expect(openAiEmbeddingsAdapter.convertLargeResponse?.(Buffer.from(named), context('text-embedding-3-small'))).toMatchObject({ ok: true });
  });

  it('is parsed whole when its model must be rewritten, and the model is the caller\'s', () => {
    const text = largeAnswer('text-embedding-3-small', { prompt_tokens: 5, total_tokens: 5 });
    expect(openAiEmbeddingsAdapter.convertLargeResponse?.(Buffer.from(text), context('house-embedder'))).toBeUndefined();
    const answer = convert(text, 'house-embedder');
    if (!answer.ok || answer.kind !== 'json') throw new Error('expected a JSON answer');
    expect(answer.body['model']).toBe('house-embedder');
    expect(JSON.parse(answer.text?.toString() ?? '').model).toBe('house-embedder');
    expect(answer.usage.promptTokens).toBe(5);
  });

  it('without usage at its end falls back to counting the inputs', () => {
    const answer = convert(largeAnswer('text-embedding-3-small', undefined), 'text-embedding-3-small');
    if (!answer.ok) throw new Error('expected an answer');
    expect(answer.usage).toMatchObject({ estimated: true, uncountedText: 'a\nb' });
  });

  it('a large text that is not one object is still refused as malformed (the relay retries elsewhere)', () => {
    const text = `${largeAnswer('text-embedding-3-small', { prompt_tokens: 5, total_tokens: 5 })}garbage`;
    expect(convert(text, 'text-embedding-3-small').ok).toBe(false);
  });

  it('a small answer is read as text, not passed through as bytes', () => {
    const text = JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1] }], model: 'm', usage: { prompt_tokens: 1 } });
    expect(openAiEmbeddingsAdapter.convertLargeResponse?.(Buffer.from(text), context('m'))).toBeUndefined();
    const answer = convert(text, 'm');
    if (!answer.ok || answer.kind !== 'json') throw new Error('expected a JSON answer');
    expect(answer.usage.promptTokens).toBe(1);
  });
});

describe('tailObject', () => {
  it('finds the last key\'s object, spaced or not, nested objects included', () => {
    expect(tailObject(Buffer.from('{"data":[1,2],"usage" : { "prompt_tokens": 3, "details": {"cached": 1} }}'), 'usage')).toEqual({
      prompt_tokens: 3,
      details: { cached: 1 },
    });
  });

  it('decodes only from the key on, multi-byte text before it included', () => {
    const raw = Buffer.from('{"data":["é—漢字"],"usage":{"prompt_tokens":7}}');
    expect(tailObject(raw, 'usage')).toEqual({ prompt_tokens: 7 });
    expect(tailObject(Buffer.from('{"data":[]}'), 'usage')).toBeUndefined();
  });

  it('is undefined when the key is absent, not followed by an object, or the object never closes', () => {
    expect(tailObject(Buffer.from('{"data":[]}'), 'usage')).toBeUndefined();
    expect(tailObject(Buffer.from('{"usage":null}'), 'usage')).toBeUndefined();
    expect(tailObject(Buffer.from('{"usage":{"prompt_tokens":3'), 'usage')).toBeUndefined();
  });
});
