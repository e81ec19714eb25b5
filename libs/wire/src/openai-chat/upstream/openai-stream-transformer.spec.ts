import { ChatCompletionChunkSchema } from '@chat-relay/contract';
import { createParser } from 'eventsource-parser';
import { readFixture } from '../../testing/fixtures';
import { OpenAiStreamTransformer } from './openai-stream-transformer';

/** The data payloads of a recorded SSE body, parsed by a real SSE parser. */
function sseDataOf(text: string): string[] {
  const events: string[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event.data) });
  parser.feed(text);
  return events;
}

const transformerFor = (publicModel: string, callerWantsUsage: boolean, secrets: string[] = []) =>
  new OpenAiStreamTransformer({ publicModel, callerWantsUsage, secrets });

function run(fixture: string, callerWantsUsage: boolean) {
  const transformer = transformerFor('my-model', callerWantsUsage, ['sk-secret']);
  const data = sseDataOf(readFixture(fixture));
  const steps = data.map((payload) => transformer.transform({ data: payload }));
  const chunks = steps.flat().flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json)] : []));
  return { transformer, steps, chunks, events: data.length };
}

describe('OpenAiStreamTransformer on recorded OpenAI streams', () => {
  it('keeps parallel tool calls apart by index and rewrites the model', () => {
    const { chunks, steps, transformer } = run('openai/chat-stream-parallel-tool-calls.sse', true);
    for (const chunk of chunks) {
      expect(ChatCompletionChunkSchema.safeParse(chunk).success).toBe(true);
      expect(chunk.model).toBe('my-model');
    }
    const calls = new Map<number, { id?: string; name?: string; args: string }>();
    for (const chunk of chunks) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        const call = calls.get(delta.index) ?? { args: '' };
        call.id ??= delta.id;
        call.name ??= delta.function?.name;
        call.args += delta.function?.arguments ?? '';
        calls.set(delta.index, call);
      }
    }
    expect([...calls.keys()]).toEqual([0, 1]);
    for (const call of calls.values()) {
      expect(call.id).toMatch(/^call_/);
      expect(() => JSON.parse(call.args)).not.toThrow();
    }
    expect(steps.at(-1)).toEqual([]);
    expect(transformer.sawDone).toBe(true);
    expect(transformer.complete).toBe(true);
  });

  it('passes the usage chunk through when the caller asked for it', () => {
    const { chunks, transformer } = run('openai/chat-stream-text.sse', true);
    const last = chunks.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage.total_tokens).toBeGreaterThan(0);
    expect(transformer.usage).toEqual({
      promptTokens: last.usage.prompt_tokens,
      completionTokens: last.usage.completion_tokens,
    });
  });

  it('reads the cached part of the prompt from the usage chunk, whether the caller sees it or not', () => {
    for (const callerWantsUsage of [true, false]) {
      const transformer = transformerFor('my-model', callerWantsUsage);
      const usage = { prompt_tokens: 2006, completion_tokens: 300, total_tokens: 2306, prompt_tokens_details: { cached_tokens: 1920 } };
      transformer.transform({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [], usage }) });
      expect(transformer.usage).toEqual({ promptTokens: 2006, completionTokens: 300, cacheReadTokens: 1920 });
    }
  });

  it('removes the usage chunk and usage fields when the caller did not ask, but still counts usage', () => {
    const { chunks, events, transformer } = run('openai/chat-stream-text.sse', false);
    expect(chunks.every((chunk) => chunk.choices.length > 0)).toBe(true);
    expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true);
    // Every event but [DONE] and the usage chunk reaches the caller.
    expect(chunks).toHaveLength(events - 2);
    expect(transformer.usage?.completionTokens).toBeGreaterThan(0);
  });

  it('keeps every choice of an n=3 stream and sees the finish reasons', () => {
    const { chunks, transformer } = run('openai/chat-stream-n3-choices.sse', true);
    const indexes = new Set(chunks.flatMap((chunk) => chunk.choices.map((choice: { index: number }) => choice.index)));
    expect([...indexes].sort()).toEqual([0, 1, 2]);
    expect(transformer.sawFinishReason).toBe(true);
  });

  it('turns an in-stream error into one error step with secrets redacted', () => {
    const transformer = transformerFor('m', false, ['sk-secret']);
    const [step] = transformer.transform({
      data: JSON.stringify({ error: { message: 'bad key sk-secret used', type: 'server_error', code: 'oops', param: null } }),
    });
    expect(step?.kind).toBe('error');
    if (step?.kind !== 'error') return;
    expect(step.error.message).not.toContain('sk-secret');
    expect(step.error.toBody().error).toMatchObject({ type: 'server_error', code: 'oops' });
  });

  it('reports malformed events as bad_response', () => {
    const [step] = transformerFor('m', false).transform({ data: '{not json' });
    expect(step?.kind === 'error' && step.error.code).toBe('bad_response');
  });
});
