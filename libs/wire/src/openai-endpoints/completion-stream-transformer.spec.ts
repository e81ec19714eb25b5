import { CompletionSchema } from '@chat-relay/contract';
import { CompletionStreamTransformer } from './completion-stream-transformer';
import { readStreamLines } from './testing/media-fixtures';

const recorded = readStreamLines('completion-text.stream.jsonl');
const recordedText = recorded
  .map(({ data }) => JSON.parse(data) as { choices: Array<{ text: string }> })
  .flatMap((chunk) => chunk.choices.map((choice) => choice.text))
  .join('');

function replay(callerWantsUsage: boolean, events = [...recorded, { data: '[DONE]' }]) {
  const transformer = new CompletionStreamTransformer({ publicModel: 'my-instruct', callerWantsUsage, secrets: ['sk-secret'] });
  const steps = events.flatMap((event) => transformer.transform(event));
  const chunks = steps.flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json)] : []));
  return { transformer, steps, chunks };
}

describe('CompletionStreamTransformer on the recorded /completions stream (completion-text.stream.jsonl)', () => {
  it('relays every text chunk with the caller’s model, usage removed when the caller did not ask', () => {
    const { chunks, steps, transformer } = replay(false);
    expect(steps.every((step) => step.kind === 'chunk')).toBe(true);
    // Every chunk but the usage-only one reaches the caller.
    expect(chunks).toHaveLength(recorded.length - 1);
    for (const chunk of chunks) {
      expect(CompletionSchema.parse(chunk).model).toBe('my-instruct');
      expect(chunk).not.toHaveProperty('usage');
      expect(chunk.object).toBe('text_completion');
    }
    expect(chunks.at(-1).choices[0].finish_reason).toBe('length');
    expect(chunks.map((chunk) => chunk.choices[0].text).join('')).toBe(recordedText);
    expect(transformer.usage).toEqual({ promptTokens: 14, completionTokens: 16 });
    expect(transformer.deliveredText).toBe(recordedText);
    expect(transformer.deliveredChars).toBe(recordedText.length);
    expect(transformer.complete).toBe(true);
  });

  it('keeps the usage chunk (choices []) for a caller who asked, and its bytes but the model', () => {
    const { chunks, steps } = replay(true);
    expect(chunks).toHaveLength(recorded.length);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 14, completion_tokens: 16, total_tokens: 30 } });
    const first = steps[0];
    expect(first?.kind === 'chunk' && first.json).toBe(recorded[0]?.data.replace('gpt-3.5-turbo-instruct:20230824-v2', 'my-instruct'));
  });

  it('is complete at the finish reason even when the server sends no [DONE]', () => {
    const withoutDone = replay(false, recorded.slice(0, -1));
    expect(withoutDone.transformer.complete).toBe(true);
    expect(withoutDone.transformer.usage).toBeUndefined();
    const cut = replay(false, recorded.slice(0, 3));
    expect(cut.transformer.complete).toBe(false);
  });

  it('turns an in-stream error into one error step, the key redacted', () => {
    const { steps } = replay(false, [{ data: JSON.stringify({ error: { message: 'bad key sk-secret', type: 'server_error', code: 'boom' } }) }]);
    expect(steps).toHaveLength(1);
    const [step] = steps;
    expect(step?.kind).toBe('error');
    if (step?.kind !== 'error') return;
    expect(step.error.message).not.toContain('sk-secret');
    expect(step.error.code).toBe('boom');
  });

  it.each([
    ['not JSON', '{"id":'],
    ['a choice without text as a string', JSON.stringify({ choices: [{ index: 0, text: 3, finish_reason: null }] })],
    ['choices that are not a list', JSON.stringify({ choices: {} })],
    ['malformed usage', JSON.stringify({ choices: [], usage: { prompt_tokens: 'x' } })],
  ])('reports %s as a bad_response error', (_name, data) => {
    const { steps } = replay(true, [{ data }]);
    expect(steps).toEqual([expect.objectContaining({ kind: 'error', error: expect.objectContaining({ code: 'bad_response' }) })]);
  });
});
