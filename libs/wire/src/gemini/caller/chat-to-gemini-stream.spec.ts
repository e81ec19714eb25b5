import { GeminiGenerateContentResponseSchema, type GeminiGenerateContentResponse } from '@chat-relay/contract';
import type { StreamStep } from '../../hub/upstream-adapter';
import { ChatToGeminiStream } from './chat-to-gemini-stream';

type Delta = Record<string, unknown>;
const chunk = (delta: Delta, finishReason: string | null = null, index = 0) =>
  JSON.stringify({ id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index, delta, finish_reason: finishReason }] });
const usageChunk = (usage: Record<string, unknown>) =>
  JSON.stringify({ id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [], usage });
const USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };
const toolDelta = (index: number, fields: { id?: string; name?: string; args?: string }) => ({
  tool_calls: [{ index, ...(fields.id ? { id: fields.id, type: 'function' } : {}), function: { ...(fields.name ? { name: fields.name } : {}), ...(fields.args !== undefined ? { arguments: fields.args } : {}) } }],
});

function run(chunks: string[], finish = true, includeThoughts = false) {
  const stream = new ChatToGeminiStream({ publicModel: 'my-gemini', includeThoughts });
  const steps: StreamStep[] = chunks.flatMap((json) => stream.transform(json));
  if (finish) steps.push(...stream.finish());
  const responses = steps.flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json) as GeminiGenerateContentResponse] : []));
  for (const response of responses) expect(GeminiGenerateContentResponseSchema.safeParse(response).success).toBe(true);
  return { stream, steps, responses };
}

const partsOf = (responses: GeminiGenerateContentResponse[]) => responses.flatMap((response) => response.candidates?.[0]?.content?.parts ?? []);

describe('ChatToGeminiStream', () => {
  it('text deltas as they come, then one last chunk with finishReason and usageMetadata; no event names', () => {
    const { steps, responses } = run([chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' }, 'stop'), usageChunk(USAGE)]);
    expect(steps.every((step) => step.kind === 'chunk' && step.event === undefined)).toBe(true);
    expect(responses).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }], modelVersion: 'my-gemini', responseId: 's1' },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, index: 0 }], modelVersion: 'my-gemini', responseId: 's1' },
      {
        candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 },
        modelVersion: 'my-gemini',
        responseId: 's1',
      },
    ]);
  });

  it('a tool call’s fragments go out as one whole functionCall with its id, once its choice has finished', () => {
    const { responses } = run([
      chunk({ role: 'assistant', content: null }),
      chunk(toolDelta(0, { id: 'call_a', name: 'get_weather', args: '' })),
      chunk(toolDelta(0, { args: '{"city":' })),
      chunk(toolDelta(1, { id: 'call_b', name: 'get_time', args: '{"city":"Paris"}' })),
      chunk(toolDelta(0, { args: '"Paris"}' })),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ]);
    expect(responses).toHaveLength(2);
    expect(responses[0]?.candidates?.[0]?.content?.parts).toEqual([
      { functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } } },
      { functionCall: { id: 'call_b', name: 'get_time', args: { city: 'Paris' } } },
    ]);
    expect(responses[0]?.candidates?.[0]?.finishReason).toBeUndefined();
    expect(responses[1]?.candidates?.[0]).toEqual({ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 });
  });

  it('calls never finished (no finish reason) still go out whole at the end', () => {
    const { responses } = run([chunk(toolDelta(0, { id: 'c', name: 'ping', args: '{}' }))]);
    expect(responses).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: 'c', name: 'ping', args: {} } }] }, finishReason: 'STOP', index: 0 }], modelVersion: 'my-gemini', responseId: 's1' },
    ]);
  });

  it('length → MAX_TOKENS, content_filter → SAFETY', () => {
    expect(run([chunk({ content: 'a' }, 'length'), usageChunk(USAGE)]).responses.at(-1)?.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(run([chunk({ content: 'a' }, 'content_filter'), usageChunk(USAGE)]).responses.at(-1)?.candidates?.[0]?.finishReason).toBe('SAFETY');
  });

  it('reasoning deltas are thought parts when thoughts were asked for, else not sent', () => {
    const chunks = [chunk({ reasoning_content: 'hmm' }), chunk({ content: 'Yes' }, 'stop'), usageChunk(USAGE)];
    expect(partsOf(run(chunks, true, true).responses)).toEqual([{ text: 'hmm', thought: true }, { text: 'Yes' }]);
    expect(partsOf(run(chunks, true, false).responses)).toEqual([{ text: 'Yes' }]);
  });

  it('several choices are candidates by index, each with its finish reason at the end', () => {
    const { responses } = run([chunk({ content: 'A' }, null, 0), chunk({ content: 'B' }, null, 1), chunk({}, 'stop', 0), chunk({}, 'length', 1), usageChunk(USAGE)]);
    expect(responses.at(-1)?.candidates?.map((candidate) => [candidate.index, candidate.finishReason])).toEqual([
      [0, 'STOP'],
      [1, 'MAX_TOKENS'],
    ]);
  });

  it('usage on every chunk (vLLM) does not end the stream early', () => {
    const { responses } = run([JSON.stringify({ ...JSON.parse(chunk({ content: 'a' })), usage: USAGE }), chunk({ content: 'b' }, 'stop'), usageChunk(USAGE)]);
    expect(partsOf(responses).filter((part) => part.text !== undefined).map((part) => part.text)).toEqual(['a', 'b']);
    expect(responses.filter((response) => response.usageMetadata)).toHaveLength(1);
  });

  it('an error chunk is one error step, and nothing follows', () => {
    const { steps, stream } = run([chunk({ content: 'a' }), JSON.stringify({ error: { message: 'boom', type: 'server_error' } })], false);
    expect(steps.map((step) => step.kind)).toEqual(['chunk', 'error']);
    expect(stream.transform(chunk({ content: 'late' }))).toEqual([]);
    expect(stream.finish()).toEqual([]);
  });

  it('a chunk that is not JSON fails the stream', () => {
    const { steps } = run(['{nope'], false);
    expect(steps).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'bad_response' }) }]);
  });

  it('nothing follows the end', () => {
    const { stream } = run([chunk({ content: 'a' }, 'stop'), usageChunk(USAGE)], false);
    expect(stream.transform(chunk({ content: 'late' }))).toEqual([]);
    expect(stream.finish()).toEqual([]);
  });
});
