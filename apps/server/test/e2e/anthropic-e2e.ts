import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import type { Channel, ChannelType } from '@chat-relay/contract';
import type { RecordedRequest, UpstreamSim } from '@chat-relay/upstream-sim';
import { createParser } from 'eventsource-parser';
import type { TestRelayOptions } from '../testing/test-relay';
import { startE2eRelay, type ChannelInput, type E2eRelay } from './e2e-relay';

/**
 * The name every Anthropic caller here asks for, whichever channel type serves it (as Claude
 * Code does). Not one the SDK warns about on every call (it does for claude-sonnet-4-5).
 */
export const CLAUDE = 'claude-opus-4-5';

/** The `anthropic-version` raw calls here send (the SDK sends its own). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** A channel type in front of the simulator speaking its format, serving {@link CLAUDE} under another name. */
export interface ChannelKind {
  type: ChannelType;
  /** What the channel's model_mapping sends upstream for {@link CLAUDE}. */
  upstreamModel: string;
  baseUrl(sim: UpstreamSim): string;
  /** The simulator's requests that are model calls of this format (not count_tokens, not model lists). */
  calls(sim: UpstreamSim): RecordedRequest[];
}

export const anthropicKind: ChannelKind = {
  type: 'anthropic',
  upstreamModel: 'claude-opus-4-5-20251101',
  baseUrl: (sim) => sim.anthropicBaseUrl,
  calls: (sim) => sim.requests.filter((request) => request.path === '/v1/messages'),
};

export const openAiKind: ChannelKind = {
  type: 'openai',
  upstreamModel: 'gpt-4o',
  baseUrl: (sim) => sim.baseUrl,
  calls: (sim) => sim.requests.filter((request) => request.path === '/v1/chat/completions'),
};

export const geminiKind: ChannelKind = {
  type: 'gemini',
  upstreamModel: 'gemini-2.5-flash',
  baseUrl: (sim) => sim.geminiBaseUrl,
  calls: (sim) => sim.requests.filter((request) => request.path.startsWith('/v1beta/models/gemini-2.5-flash:')),
};

export const channelKinds: readonly ChannelKind[] = [anthropicKind, openAiKind, geminiKind];

/** The official Anthropic SDK on the relay: its paths carry `/v1`, so the base URL does not; retries off. */
export function anthropicClient(e2e: E2eRelay, options: Partial<ClientOptions> = {}): Anthropic {
  return new Anthropic({ baseURL: e2e.url, apiKey: e2e.token, maxRetries: 0, ...options });
}

export interface AnthropicE2e extends E2eRelay {
  sim: UpstreamSim;
  channel: Channel;
  kind: ChannelKind;
  /** The SDK on the relay; every request's headers land in {@link sentHeaders}. */
  anthropic: Anthropic;
  /** The headers of each request {@link anthropic} sent, in order: what "as sent" means. */
  sentHeaders: Headers[];
}

/** A relay with one simulator behind one channel of `kind` serving {@link CLAUDE}, and an Anthropic SDK caller. */
export async function startAnthropicRelay(
  kind: ChannelKind,
  input: ChannelInput = {},
  options: TestRelayOptions = {},
): Promise<AnthropicE2e> {
  const e2e = await startE2eRelay(options);
  const sim = await e2e.startSim();
  const channel = await e2e.addChannel(kind.baseUrl(sim), {
    type: kind.type,
    models: [CLAUDE],
    model_mapping: { [CLAUDE]: kind.upstreamModel },
    ...input,
  });
  const sentHeaders: Headers[] = [];
  const fetchAndRecord: typeof fetch = (input, init) => {
    sentHeaders.push(new Headers(init?.headers));
    return fetch(input, init);
  };
  return { ...e2e, sim, channel, kind, anthropic: anthropicClient(e2e, { fetch: fetchAndRecord }), sentHeaders };
}

/** `POST` to the relay with fetch as the SDK would send it (`x-api-key`, `anthropic-version`), for the raw answer. */
export function postAnthropic(
  e2e: E2eRelay,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${e2e.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': e2e.token, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The SDK's error for a call; fails the test when the call succeeds. */
export async function anthropicError(call: () => Promise<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  try {
    await call();
  } catch (error) {
    if (error instanceof Anthropic.APIError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

export interface NamedEvent {
  event: string | undefined;
  data: string;
}

/** Raw SSE text → its events, name and data text as they came. */
export function namedEventsOf(text: string): NamedEvent[] {
  const events: NamedEvent[] = [];
  const parser = createParser({ onEvent: ({ event, data }) => events.push({ event, data }) });
  parser.feed(text);
  parser.reset({ consume: true });
  return events;
}

/** Two tools; the simulator calls every tool whose name's words all appear in the user's text. */
export const anthropicWeatherTools: Anthropic.Tool[] = [
  {
    name: 'get_weather',
    description: 'Current weather in a city',
    input_schema: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
    },
  },
  {
    name: 'get_time',
    description: 'Local time in a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];

/** The `tool_use` blocks of an answer. */
export const toolUsesOf = (message: Anthropic.Message): Anthropic.ToolUseBlock[] =>
  message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');

/** The text of an answer's text blocks, joined. */
export const textOf = (message: Anthropic.Message): string =>
  message.content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('');
