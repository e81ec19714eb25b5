import { ChatCompletionChunkSchema } from '@chat-relay/contract';
import { createParser } from 'eventsource-parser';
import { azureProvider } from '../providers/azure';
import { readFixture } from '../testing/fixtures';

/** The data payloads of a recorded SSE body, parsed by a real SSE parser. */
function sseDataOf(text: string): string[] {
  const events: string[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event.data) });
  parser.feed(`${text}\n\n`);
  return events;
}

describe('a recorded Azure OpenAI stream with the asynchronous content filter (test-fixtures/azure, SOURCES.md)', () => {
  it('reaches the caller as three OpenAI chunks: the preamble and the two verdict-only chunks after the finish dropped', () => {
    const data = sseDataOf(readFixture('azure/chat-stream-async-filter.sse'));
    expect(data).toHaveLength(7);
    const transformer = azureProvider.chat?.createStreamTransformer({ publicModel: 'gpt-4o', callerWantsUsage: false, secrets: [] });
    if (!transformer) throw new Error('no transformer');
    const steps = data.flatMap((payload) => transformer.transform({ data: payload }));
    const chunks = steps.map((step) => (step.kind === 'chunk' ? (JSON.parse(step.json) as Record<string, unknown>) : step));
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) {
      expect(ChatCompletionChunkSchema.safeParse(chunk).success).toBe(true);
      expect(chunk).toMatchObject({ id: 'chatcmpl-A1FOCU4vamBSxxqjaKcvADYMlwlaC', model: 'gpt-4o' });
    }
    expect(chunks.map((chunk) => JSON.stringify(chunk))).not.toContainEqual(expect.stringMatching(/filter/));
    expect([transformer.complete, transformer.deliveredText]).toEqual([true, 'Kindness']);
  });
});
