import { ResponseObjectSchema } from '@chat-relay/contract';
import { startUpstreamSim } from '../sim-server';
import { postResponses, readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { specValidEvents, type ResponseEvent } from './testing/openai-spec-check';

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const timeTool = { type: 'function', name: 'get_time', parameters: { type: 'object', properties: {} } };

/** `w1 w2 … wN`: one word token each. */
const words = (count: number): string => Array.from({ length: count }, (_, index) => `w${index + 1}`).join(' ');

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());

/** Every event of a streamed response, each checked against its schema in the OpenAI spec. */
async function stream(body: Record<string, unknown>): Promise<ResponseEvent[]> {
  const response = await postResponses(sim, { ...body, stream: true });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const { text, error } = await readAll(response);
  expect(error).toBeUndefined();
  expect(text).not.toContain('[DONE]');
  return specValidEvents(text);
}

function outputText(response: { output: unknown[] }): string {
  return response.output
    .flatMap((item) => ((item as { type: string }).type === 'message' ? (item as { content: { text: string }[] }).content : []))
    .map((part) => part.text)
    .join('');
}

describe('POST /v1/responses, streamed', () => {
  it('streams the text lifecycle, every event spec-valid, sequence numbers 0…n, deltas joining into the text', async () => {
    const events = await stream({ model: 'gpt-4o', input: 'Hello world' });
    expect(events.map((event) => event.data.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array(4).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, index) => index));
    const created = ResponseObjectSchema.parse(events[0]?.data['response']);
    expect(created).toMatchObject({ status: 'in_progress', output: [], usage: null });
    const deltas = events.filter((event) => event.data.type === 'response.output_text.delta').map((event) => event.data['delta']);
    expect(deltas).toEqual(['You', ' said:', ' Hello', ' world']);
    expect(events.every((event) => !('delta' in event.data) || typeof event.data['obfuscation'] === 'string')).toBe(true);
    const completed = ResponseObjectSchema.parse(events.at(-1)?.data['response']);
    expect(completed.id).toBe(created.id);
    expect(outputText(completed)).toBe('You said: Hello world');
    expect(completed.usage?.output_tokens).toBe(4);
    const itemId = (completed.output[0] as { id: string }).id;
    expect(events.slice(2, -1).every((event) => event.data['item_id'] === itemId || (event.data['item'] as { id?: string })?.id === itemId)).toBe(true);
  });

  it('streams calls: output_item.added with empty arguments, argument deltas, arguments.done with the name', async () => {
    const events = await stream({ model: 'gpt-4o', input: 'get weather and get time', tools: [weatherTool, timeTool] });
    const types = events.map((event) => event.data.type);
    expect(types.slice(0, 3)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added']);
    expect(types.filter((type) => type === 'response.function_call_arguments.done')).toHaveLength(2);
    expect(types).not.toContain('response.content_part.added');
    const added = events.filter((event) => event.data.type === 'response.output_item.added').map((event) => event.data['item']);
    expect(added).toEqual([
      expect.objectContaining({ type: 'function_call', status: 'in_progress', arguments: '', name: 'get_weather' }),
      expect.objectContaining({ type: 'function_call', status: 'in_progress', arguments: '', name: 'get_time' }),
    ]);
    const firstId = (added[0] as { id: string }).id;
    const args = events
      .filter((event) => event.data.type === 'response.function_call_arguments.delta' && event.data['item_id'] === firstId)
      .map((event) => event.data['delta'])
      .join('');
    expect(JSON.parse(args)).toEqual({ city: 'city value' });
    const done = events.find((event) => event.data.type === 'response.function_call_arguments.done');
    expect(done?.data).toMatchObject({ item_id: firstId, name: 'get_weather', arguments: args, output_index: 0 });
    const completed = ResponseObjectSchema.parse(events.at(-1)?.data['response']);
    expect(completed.output.map((item) => (item as { call_id: string }).call_id)).toEqual(
      events.filter((event) => event.data.type === 'response.output_item.done').map((event) => (event.data['item'] as { call_id: string }).call_id),
    );
  });

  it('ends with response.incomplete when max_output_tokens cuts the text', async () => {
    const events = await stream({ model: 'gpt-4o', input: words(20), max_output_tokens: 16 });
    const last = events.at(-1)?.data;
    expect(last?.type).toBe('response.incomplete');
    expect(last?.['response']).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(events.find((event) => event.data.type === 'response.output_item.done')?.data['item']).toMatchObject({ status: 'incomplete' });
  });

  it('leaves obfuscation out with stream_options.include_obfuscation: false', async () => {
    const events = await stream({ model: 'gpt-4o', input: 'Hi', stream_options: { include_obfuscation: false } });
    const deltas = events.filter((event) => event.data.type === 'response.output_text.delta');
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.some((event) => 'obfuscation' in event.data)).toBe(false);
  });
});
