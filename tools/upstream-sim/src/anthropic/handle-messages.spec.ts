import { anthropicVersion, parseSse, postAnthropic, readAll, testKey } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { AnthropicMessageResponse, AnthropicStreamEvent } from './anthropic-api';

const weatherTool = {
  name: 'get_weather',
  description: 'Weather in a city',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  },
};
const timeTool = { name: 'get_time', input_schema: { type: 'object', properties: {} } };
const askBoth = 'get the weather and get the time';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const messages = (body: Record<string, unknown>) => ({ model: 'claude-sonnet-4-5', max_tokens: 256, ...body });

async function answer(body: Record<string, unknown>): Promise<AnthropicMessageResponse> {
  const response = await postAnthropic(sim, messages(body));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as AnthropicMessageResponse;
}

async function streamEvents(body: Record<string, unknown>): Promise<{ names: string[]; events: AnthropicStreamEvent[] }> {
  const response = await postAnthropic(sim, messages({ ...body, stream: true }));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const { text, error } = await readAll(response);
  expect(error).toBeUndefined();
  const parsed = parseSse(text);
  const events = parsed.map((event) => JSON.parse(event.data) as AnthropicStreamEvent);
  // Every event is named by an `event:` line equal to its `type`.
  expect(parsed.map((event) => event.event)).toEqual(events.map((event) => event.type));
  return { names: events.map((event) => event.type), events };
}

interface StreamedBlock {
  kind: string;
  id?: string;
  name?: string;
  text: string;
  /** The `partial_json` fragments, in order. */
  fragments: string[];
}

/** Blocks rebuilt from the deltas, keyed by their `index`. */
function reassemble(events: readonly AnthropicStreamEvent[]): Map<number, StreamedBlock> {
  const blocks = new Map<number, StreamedBlock>();
  for (const event of events) {
    if (event.type === 'content_block_start') {
      const block = event.content_block;
      const opened = block.type === 'tool_use' ? { kind: 'tool_use', id: block.id, name: block.name } : { kind: 'text' };
      blocks.set(event.index, { ...opened, text: '', fragments: [] });
    } else if (event.type === 'content_block_delta') {
      const block = blocks.get(event.index)!;
      if (event.delta.type === 'text_delta') block.text += event.delta.text;
      else if (event.delta.type === 'input_json_delta') block.fragments.push(event.delta.partial_json);
    }
  }
  return blocks;
}

describe('POST /v1/messages, not streamed', () => {
  it('echoes the user in a Messages API response with usage and the cache fields', async () => {
    const message = await answer({ messages: [{ role: 'user', content: 'Hi there' }] });
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_sim[0-9a-f]{24}$/),
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'You said: Hi there' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: 4,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      },
    });
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it('reads system blocks, text blocks and images, and answers the same request with the same id', async () => {
    const body = {
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'what is' },
            { type: 'text', text: 'this?' },
          ],
        },
      ],
    };
    const first = await answer(body);
    expect(first.content).toEqual([{ type: 'text', text: 'You said: what is this?' }]);
    expect((await answer(body)).id).toBe(first.id);
  });

  it('calls every fitting tool in parallel: tool_use blocks with toolu_ ids and object inputs', async () => {
    const message = await answer({ messages: [{ role: 'user', content: askBoth }], tools: [weatherTool, timeTool] });
    expect(message.stop_reason).toBe('tool_use');
    const toolUseId = expect.stringMatching(/^toolu_[0-9a-f]{24}$/);
    expect(message.content).toEqual([
      { type: 'tool_use', id: toolUseId, name: 'get_weather', input: { city: 'city value', unit: 'celsius' } },
      { type: 'tool_use', id: toolUseId, name: 'get_time', input: {} },
    ]);
    const [first, second] = message.content;
    expect(first?.type === 'tool_use' && second?.type === 'tool_use' && first.id !== second.id).toBe(true);
  });

  it('honours tool_choice: tool, none, any (even when no tool fits) and disable_parallel_tool_use', async () => {
    const names = async (content: string, toolChoice: Record<string, unknown>) => {
      const message = await answer({ messages: [{ role: 'user', content }], tools: [weatherTool, timeTool], tool_choice: toolChoice });
      return message.content.map((block) => (block.type === 'tool_use' ? block.name : block.type));
    };
    expect(await names(askBoth, { type: 'tool', name: 'get_time' })).toEqual(['get_time']);
    expect(await names(askBoth, { type: 'none' })).toEqual(['text']);
    expect(await names(askBoth, { type: 'auto', disable_parallel_tool_use: true })).toEqual(['get_weather']);
    expect(await names('hello', { type: 'any' })).toEqual(['get_weather']);
  });

  it('answers tool results found by tool_use_id, content as a string or as text blocks', async () => {
    const first = await answer({ messages: [{ role: 'user', content: askBoth }], tools: [weatherTool, timeTool] });
    const [weather, time] = first.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
    const final = await answer({
      tools: [weatherTool, timeTool],
      messages: [
        { role: 'user', content: askBoth },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            // Results in the other order: matched by id, not by position.
            { type: 'tool_result', tool_use_id: time!.id, content: [{ type: 'text', text: 'noon' }] },
            { type: 'tool_result', tool_use_id: weather!.id, content: 'rain' },
          ],
        },
      ],
    });
    expect(final.content).toEqual([{ type: 'text', text: 'Here is what I found: get_time: noon; get_weather: rain.' }]);
    expect(final.stop_reason).toBe('end_turn');
  });

  it('stops at max_tokens with stop_reason max_tokens', async () => {
    const message = await answer({ max_tokens: 3, messages: [{ role: 'user', content: 'one two three four' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: one' }]);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(3);
  });

  it('says a text before the tool calls with [sim:preamble=on]', async () => {
    const message = await answer({
      messages: [{ role: 'user', content: `${askBoth} [sim:preamble=on]` }],
      tools: [weatherTool, timeTool],
    });
    expect(message.content.map((block) => block.type)).toEqual(['text', 'tool_use', 'tool_use']);
    expect(message.content[0]).toEqual({ type: 'text', text: 'Let me call get_weather and get_time.' });
  });
});

describe('POST /v1/messages, streamed', () => {
  it('streams text as named events in the real order, ping after the first block start', async () => {
    const { names, events } = await streamEvents({ messages: [{ role: 'user', content: 'Hello world' }] });
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(4).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const start = events[0];
    expect(start?.type === 'message_start' && start.message).toMatchObject({
      content: [],
      stop_reason: null,
      usage: { output_tokens: 1 },
    });
    expect(reassemble(events).get(0)?.text).toBe('You said: Hello world');
    // Like the current API, message_delta repeats the input side: cumulative usage.
    const inputTokens = start?.type === 'message_start' ? start.message.usage.input_tokens : -1;
    expect(inputTokens).toBeGreaterThan(0);
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 4 },
    });
  });

  it('streams parallel tool_use blocks whose input_json_delta fragments reassemble by block index', async () => {
    const { events } = await streamEvents({ messages: [{ role: 'user', content: askBoth }], tools: [weatherTool, timeTool] });
    const blocks = reassemble(events);
    expect([...blocks.keys()]).toEqual([0, 1]);
    for (const block of blocks.values()) {
      expect(block.kind).toBe('tool_use');
      expect(block.id).toMatch(/^toolu_/);
      // Like the real API, the first fragment is empty.
      expect(block.fragments[0]).toBe('');
    }
    expect(blocks.get(0)?.name).toBe('get_weather');
    expect(JSON.parse(blocks.get(0)!.fragments.join(''))).toEqual({ city: 'city value', unit: 'celsius' });
    expect(blocks.get(0)!.fragments.length).toBeGreaterThan(2);
    expect(blocks.get(1)?.fragments).toEqual(['', '{}']);
    const starts = events.filter((event) => event.type === 'content_block_start');
    expect(starts.map((event) => event.type === 'content_block_start' && event.content_block)).toEqual([
      expect.objectContaining({ type: 'tool_use', input: {} }),
      expect.objectContaining({ type: 'tool_use', input: {} }),
    ]);
    const delta = events.find((event) => event.type === 'message_delta');
    expect(delta?.type === 'message_delta' && delta.delta.stop_reason).toBe('tool_use');
  });

  it('counts every block in index: a preamble text is block 0, the tool uses 1 and 2', async () => {
    const { events } = await streamEvents({
      messages: [{ role: 'user', content: `${askBoth} [sim:preamble=on]` }],
      tools: [weatherTool, timeTool],
    });
    const blocks = reassemble(events);
    expect([...blocks.entries()].map(([index, block]) => [index, block.kind, block.name])).toEqual([
      [0, 'text', undefined],
      [1, 'tool_use', 'get_weather'],
      [2, 'tool_use', 'get_time'],
    ]);
    expect(blocks.get(0)?.text).toBe('Let me call get_weather and get_time.');
    const stops = events.flatMap((event) => (event.type === 'content_block_stop' ? [event.index] : []));
    expect(stops).toEqual([0, 1, 2]);
  });

  it('streams the same answer it gives unstreamed', async () => {
    const body = { messages: [{ role: 'user', content: askBoth }], tools: [weatherTool, timeTool] };
    const whole = await answer(body);
    const { events } = await streamEvents(body);
    const start = events[0];
    expect(start?.type === 'message_start' && start.message.id).toBe(whole.id);
    const streamed = [...reassemble(events).values()].map((block) => ({
      type: 'tool_use',
      id: block.id,
      name: block.name,
      input: JSON.parse(block.fragments.join('')),
    }));
    expect(streamed).toEqual(whole.content);
  });
});

describe('recording', () => {
  it('records path, headers and the parsed body of a messages call', async () => {
    const body = messages({ messages: [{ role: 'user', content: 'rec' }] });
    await (await postAnthropic(sim, body)).text();
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messages', query: '', body });
    expect(sim.requests[0]?.headers).toMatchObject({ 'x-api-key': testKey, 'anthropic-version': anthropicVersion });
    expect(sim.anthropicBaseUrl).toBe(`http://127.0.0.1:${sim.port}/v1`);
  });
});
