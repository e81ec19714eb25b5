import yaml from 'js-yaml';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSse, postAnthropic, readAll } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { AnthropicMessageResponse, AnthropicStreamEvent } from './anthropic-api';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());

const ask = (body: Record<string, unknown>) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 2048,
  thinking: { type: 'enabled', budget_tokens: 1024 },
  messages: [{ role: 'user', content: 'Hello there' }],
  ...body,
});

async function streamOf(body: Record<string, unknown>): Promise<AnthropicStreamEvent[]> {
  const response = await postAnthropic(sim, { ...body, stream: true });
  expect(response.status).toBe(200);
  const { text, error } = await readAll(response);
  expect(error).toBeUndefined();
  return parseSse(text).map((event) => JSON.parse(event.data) as AnthropicStreamEvent);
}

/** Each event as `type[:block or delta type]`, an empty thinking delta told apart, runs collapsed. */
function skeleton(events: readonly AnthropicStreamEvent[]): string[] {
  const names = events.map((event) => {
    if (event.type === 'content_block_start') return `${event.type}:${event.content_block.type}`;
    if (event.type !== 'content_block_delta') return event.type;
    const empty = event.delta.type === 'thinking_delta' && event.delta.thinking === '' ? ':empty' : '';
    return `${event.type}:${event.delta.type}${empty}`;
  });
  return names.filter((name, index) => name !== names[index - 1]);
}

/** The recorded thinking stream the simulator must look like (SOURCES.md: anthropic/cassette-stream-thinking.yaml). */
function recordedThinkingStream(): { request: Record<string, unknown>; events: AnthropicStreamEvent[] } {
  const file = path.resolve(__dirname, '../../../../test-fixtures/anthropic/cassette-stream-thinking.yaml');
  const cassette = yaml.load(readFileSync(file, 'utf8')) as {
    interactions: Array<{ request: { parsed_body: Record<string, unknown> }; response: { body: { string: string } } }>;
  };
  const [interaction] = cassette.interactions;
  if (!interaction) throw new Error('empty cassette');
  const events = parseSse(interaction.response.body.string).map((event) => JSON.parse(event.data) as AnthropicStreamEvent);
  return { request: interaction.request.parsed_body, events };
}

describe('thinking, streamed', () => {
  it('has the shape of a recorded Anthropic thinking stream, usage fields included', async () => {
    const recorded = recordedThinkingStream();
    const events = await streamOf(recorded.request);
    expect(skeleton(events)).toEqual(skeleton(recorded.events));
    const usageKeys = (event: AnthropicStreamEvent | undefined): string[] => {
      if (event?.type === 'message_start') return Object.keys(event.message.usage).sort();
      return event?.type === 'message_delta' ? Object.keys(event.usage).sort() : [];
    };
    // The recording also carries service_tier and inference_geo, which the simulator leaves out.
    const startKeys = usageKeys(recorded.events[0]).filter((key) => key !== 'service_tier' && key !== 'inference_geo');
    expect(usageKeys(events[0])).toEqual(startKeys);
    expect(usageKeys(events.at(-2))).toEqual(usageKeys(recorded.events.at(-2)));
  });

  it('opens the block empty, streams the text, then one signature_delta right before content_block_stop', async () => {
    const events = await streamOf(ask({}));
    expect(events[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    const ofBlock = events.filter((event) => 'index' in event && event.index === 0);
    const signatures = ofBlock.filter((event) => event.type === 'content_block_delta' && event.delta.type === 'signature_delta');
    expect(signatures).toHaveLength(1);
    expect(ofBlock.at(-2)).toBe(signatures[0]);
    expect(ofBlock.at(-1)).toEqual({ type: 'content_block_stop', index: 0 });
    const textStart = events.find((event) => event.type === 'content_block_start' && event.content_block.type === 'text');
    expect(textStart).toMatchObject({ index: 1 });
  });

  it('streams the same thinking, signature and usage it gives unstreamed', async () => {
    const whole = (await (await postAnthropic(sim, ask({}))).json()) as AnthropicMessageResponse;
    const events = await streamOf(ask({}));
    let thinking = '';
    let signature = '';
    for (const event of events) {
      if (event.type !== 'content_block_delta' || event.index !== 0) continue;
      if (event.delta.type === 'thinking_delta') thinking += event.delta.thinking;
      if (event.delta.type === 'signature_delta') signature += event.delta.signature;
    }
    expect({ type: 'thinking', thinking, signature }).toEqual(whole.content[0]);
    const delta = events.find((event) => event.type === 'message_delta');
    expect(delta?.type === 'message_delta' && delta.usage.output_tokens).toBe(whole.usage.output_tokens);
  });

  it('with display "omitted", streams no thinking_delta, only the signature', async () => {
    const events = await streamOf(ask({ thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' } }));
    const deltaTypes = events.flatMap((event) => (event.type === 'content_block_delta' && event.index === 0 ? [event.delta.type] : []));
    expect(deltaTypes).toEqual(['signature_delta']);
  });

  it('a fault lands after the first thinking delta', async () => {
    const response = await postAnthropic(sim, { ...ask({}), stream: true, x_sim: { fault: 'stream-error' } });
    const events = parseSse((await readAll(response)).text);
    expect(events.map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'error']);
    expect(JSON.parse(events[3]?.data ?? '{}')).toMatchObject({ delta: { type: 'thinking_delta' } });
  });
});
