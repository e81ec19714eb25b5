// Real clients' requests (test-fixtures/anthropic-inbound, SOURCES.md says where each is from)
// sent to the simulator: it must take what the real API took and answer in the same shape.
import yaml from 'js-yaml';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSse, postAnthropic, readAll } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { AnthropicMessageResponse, AnthropicStreamEvent, AnthropicUsage } from './anthropic-api';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const fixtures = path.resolve(__dirname, '../../../../test-fixtures/anthropic-inbound');
type Body = Record<string, unknown>;

interface Interaction {
  uri: string;
  body: Body;
  status: number;
  response: unknown;
}

/** A cassette's interactions, bodies parsed (pydantic-ai stores `parsed_body`, simonw/llm the raw JSON). */
function readCassette(name: string): Interaction[] {
  interface Raw {
    request: { uri: string; body?: string; parsed_body?: Body };
    response: { status: { code: number }; parsed_body?: unknown; body?: { string?: string } };
  }
  const cassette = yaml.load(readFileSync(path.join(fixtures, name), 'utf8')) as { interactions: Raw[] };
  return cassette.interactions.map(({ request, response }) => ({
    uri: request.uri,
    body: request.parsed_body ?? (JSON.parse(request.body ?? '{}') as Body),
    status: response.status.code,
    response: response.parsed_body ?? response.body?.string,
  }));
}

function interaction(name: string, index: number): Interaction {
  const found = readCassette(name)[index];
  if (!found) throw new Error(`${name} has no interaction ${index}`);
  return found;
}

/** The path under the Anthropic base URL a recorded call went to (`/messages?beta=true`…). */
const pathOf = (uri: string) => new URL(uri).pathname.replace(/^\/v1/, '') + new URL(uri).search;

async function eventsOf(response: Response): Promise<AnthropicStreamEvent[]> {
  expect(response.status).toBe(200);
  return parseSse((await readAll(response)).text).map((event) => JSON.parse(event.data) as AnthropicStreamEvent);
}

function skeleton(events: readonly AnthropicStreamEvent[]): string[] {
  const names = events.map((event) => {
    if (event.type === 'content_block_start') return `${event.type}:${event.content_block.type}`;
    if (event.type !== 'content_block_delta') return event.type;
    const empty = event.delta.type === 'thinking_delta' && event.delta.thinking === '' ? ':empty' : '';
    return `${event.type}:${event.delta.type}${empty}`;
  });
  return names.filter((name, index) => name !== names[index - 1]);
}

const claudeCodeBetas = [
  'claude-code-20250219',
  'interleaved-thinking-2025-05-14',
  'context-management-2025-06-27',
  'fine-grained-tool-streaming-2025-05-14',
].join(',');

describe("Claude Code's request", () => {
  const body = JSON.parse(readFileSync(path.join(fixtures, 'claude-code-request.json'), 'utf8')) as Body;

  async function startUsage(): Promise<{ usage: AnthropicUsage; events: AnthropicStreamEvent[] }> {
    const events = await eventsOf(await postAnthropic(sim, body, { beta: claudeCodeBetas, path: '/messages?beta=true' }));
    const start = events[0];
    if (start?.type !== 'message_start') throw new Error('no message_start');
    return { usage: start.message.usage, events };
  }

  it('streams a signed thinking block with its text omitted, as display "omitted" asks', async () => {
    const { events } = await startUsage();
    const thinkingDeltas = events.flatMap((event) => (event.type === 'content_block_delta' && event.index === 0 ? [event.delta.type] : []));
    expect(events[1]).toMatchObject({ type: 'content_block_start', index: 0, content_block: { type: 'thinking' } });
    expect(thinkingDeltas).toEqual(['signature_delta']);
    expect(events.at(-1)).toEqual({ type: 'message_stop' });
  });

  it('writes its three breakpoints to the cache, reads them on the next turn, and counts the same prompt', async () => {
    const first = (await startUsage()).usage;
    expect(first.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.cache_read_input_tokens).toBe(0);
    const second = (await startUsage()).usage;
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);

    const { max_tokens: _max, stream: _stream, ...prompt } = body;
    const counted = await postAnthropic(sim, prompt, { beta: claudeCodeBetas, path: '/messages/count_tokens?beta=true' });
    const { input_tokens } = (await counted.json()) as { input_tokens: number };
    expect(input_tokens).toBe(first.input_tokens + first.cache_creation_input_tokens);
  });
});

describe('recorded count_tokens calls', () => {
  it.each(['cassette-count-tokens-tools-thinking.yaml', 'cassette-count-tokens-cache-control.yaml'])(
    '%s: counted, and equal to the messages call that follows',
    async (name) => {
      const [count, messages] = readCassette(name);
      if (!count || !messages) throw new Error('expected two interactions');
      const counted = await postAnthropic(sim, count.body, { path: pathOf(count.uri) });
      expect(counted.status).toBe(count.status);
      const { input_tokens } = (await counted.json()) as { input_tokens: number };
      const answered = await postAnthropic(sim, messages.body, { path: pathOf(messages.uri) });
      const { usage } = (await answered.json()) as AnthropicMessageResponse;
      expect(usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens).toBe(input_tokens);
    },
  );

  it('an unknown model: the recorded 404 body, but for the request id', async () => {
    const recorded = interaction('cassette-count-tokens-error-404.yaml', 0);
    const response = await postAnthropic(sim, recorded.body, { path: pathOf(recorded.uri) });
    const { request_id: _id, ...expected } = recorded.response as Body;
    expect([response.status, await response.json()]).toEqual([recorded.status, expected]);
  });
});

describe('recorded thinking round trips', () => {
  it('streams thinking then tool_use in the shape Anthropic recorded', async () => {
    const recorded = interaction('cassette-stream-thinking-display-tool-chain.yaml', 0);
    const events = await eventsOf(await postAnthropic(sim, recorded.body));
    const recordedEvents = parseSse(String(recorded.response)).map((event) => JSON.parse(event.data) as AnthropicStreamEvent);
    expect(skeleton(events)).toEqual(skeleton(recordedEvents));
  });

  it("refuses Anthropic's own signature — only its own verify — and takes the turn it signed", async () => {
    const [first, second] = readCassette('cassette-thinking-tool-result-roundtrip.yaml');
    if (!first || !second) throw new Error('expected two interactions');
    const refused = await postAnthropic(sim, second.body, { path: pathOf(second.uri) });
    expect([refused.status, await refused.json()]).toEqual([
      400,
      { type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } },
    ]);

    // The same loop on the simulator's own first turn goes through.
    const own = (await (await postAnthropic(sim, first.body)).json()) as AnthropicMessageResponse;
    const toolUse = own.content.find((block) => block.type === 'tool_use');
    if (toolUse?.type !== 'tool_use') throw new Error('expected a tool call');
    const messages = second.body['messages'] as Body[];
    const followUp = {
      ...second.body,
      messages: [
        messages[0],
        { role: 'assistant', content: own.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'Mexico' }] },
      ],
    };
    const answered = await postAnthropic(sim, followUp);
    const final = (await answered.json()) as AnthropicMessageResponse;
    expect(answered.status).toBe(200);
    expect(final.content.at(-1)).toEqual({ type: 'text', text: 'Here is what I found: get_user_country: Mexico.' });
  });
});
