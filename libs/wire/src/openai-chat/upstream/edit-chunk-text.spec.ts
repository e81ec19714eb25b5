import { readFixture } from '../../testing/fixtures';
import { editChunkText } from './edit-chunk-text';

/** Applies the edits to a chunk's text, the way the transformer does: parse, then edit. */
function edit(text: string, edits: Parameters<typeof editChunkText>[2]): string {
  return editChunkText(text, JSON.parse(text) as Record<string, unknown>, edits);
}

/** What serialising the edited object would give: the reference the text edits must agree with. */
function reference(text: string, model: string | undefined, dropUsage: boolean): unknown {
  const chunk = JSON.parse(text) as Record<string, unknown>;
  if (model !== undefined) chunk['model'] = model;
  if (dropUsage) delete chunk['usage'];
  return chunk;
}

const chunk = (fields: string) => `{"id":"c1","object":"chat.completion.chunk",${fields}}`;

describe('editChunkText', () => {
  it('returns the very text received when nothing needs changing', () => {
    const text = chunk('"model":"gpt-4o","choices":[]');
    expect(edit(text, { model: 'gpt-4o', dropUsage: false })).toBe(text);
  });

  it('renames the top-level model in place, keeping every other byte', () => {
    const text = chunk('"model":"gpt-4o-2024-08-06","choices":[{"index":0,"delta":{"content":"hi"}}]');
    expect(edit(text, { model: 'gpt-4o' })).toBe(text.replace('gpt-4o-2024-08-06', 'gpt-4o'));
  });

  it('escapes the new name as JSON', () => {
    const out = edit(chunk('"model":"m","choices":[]'), { model: 'we"ird\\name' });
    expect(JSON.parse(out).model).toBe('we"ird\\name');
  });

  it.each([
    ['in the middle', '"model":"m","choices":[],"usage":null,"x":1'],
    ['last', '"model":"m","choices":[],"usage":null'],
  ])('removes a null usage %s with its comma', (_where, fields) => {
    const text = chunk(fields);
    const out = edit(text, { dropUsage: true });
    expect(JSON.parse(out)).toEqual(reference(text, undefined, true));
    expect(out).not.toContain('usage');
  });

  it('removes a null usage that is the first or the only field', () => {
    expect(edit('{"usage":null,"choices":[]}', { dropUsage: true })).toBe('{"choices":[]}');
    expect(edit('{"usage":null}', { dropUsage: true })).toBe('{}');
  });

  it.each([
    ['the same key nested', '"model":"m","choices":[{"delta":{"x":{"model":"m","usage":null}}}],"usage":null'],
    ['spaces after the colon', '"model": "m","choices":[],"usage": null'],
    ['the pattern inside a string', '"model":"m","choices":[{"delta":{"content":"\\"model\\":\\"m\\" \\"usage\\":null"}}],"usage":null'],
    ['a model that is not a string', '"model":7,"choices":[],"usage":null'],
    ['a usage that is not null', '"model":"m","choices":[{"index":0}],"usage":{"prompt_tokens":1}'],
  ])('agrees with serialising the edited object when the chunk has %s', (_case, fields) => {
    const text = chunk(fields);
    expect(JSON.parse(edit(text, { model: 'public', dropUsage: true }))).toEqual(reference(text, 'public', true));
  });

  it('leaves a nested model alone when only the top-level one is renamed', () => {
    const text = chunk('"model":"m","choices":[{"delta":{"tool":{"model":"m"}}}]');
    const out = JSON.parse(edit(text, { model: 'public' }));
    expect(out.model).toBe('public');
    expect(out.choices[0].delta.tool.model).toBe('m');
  });

  it('agrees with serialising on every chunk of recorded OpenAI streams', () => {
    for (const fixture of ['openai/chat-stream-text.sse', 'openai/chat-stream-parallel-tool-calls.sse', 'openai/chat-stream-n3-choices.sse']) {
      const payloads = readFixture(fixture)
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => line.slice('data: '.length));
      expect(payloads.length).toBeGreaterThan(2);
      for (const text of payloads) {
        const out = edit(text, { model: 'my-model', dropUsage: true });
        expect(JSON.parse(out)).toEqual(reference(text, 'my-model', true));
        // Recorded chunks are compact: the edit is made on the text, so field order is kept.
        expect(Object.keys(JSON.parse(out))).toEqual(Object.keys(reference(text, 'my-model', true) as object));
      }
    }
  });
});
