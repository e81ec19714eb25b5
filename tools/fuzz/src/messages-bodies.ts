import fc from 'fast-check';
import type { FuzzContext } from './fuzz-context';

/** The weather question the simulator answers in text. */
export const WEATHER_QUESTION = 'What is the weather in Paris?';

/**
 * What the user asks: the simulator calls every tool whose name's words all appear in the text
 * (none, one, both in parallel), and with `[sim:preamble=on]` says something before the calls.
 */
export const QUESTIONS = [WEATHER_QUESTION, 'Please get weather for Paris.', 'Please get weather and get time for Paris.', 'Please get weather and get time for Paris. [sim:preamble=on]'] as const;

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Get the current weather in a given city',
  input_schema: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] },
};

const TIME_TOOL = { name: 'get_time', description: 'Local time in a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

/** One of Claude Code's own tools, as it sends it (schema trimmed). */
const BASH_TOOL = {
  name: 'Bash',
  description: 'Executes a given bash command in a persistent shell session with optional timeout.',
  input_schema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command to execute' },
      timeout: { type: 'number', description: 'Optional timeout in milliseconds (max 600000)' },
      run_in_background: { type: 'boolean' },
    },
    required: ['command'],
    additionalProperties: false,
    $schema: 'http://json-schema.org/draft-07/schema#',
  },
};

const CLAUDE_CODE_SYSTEM = [
  { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
  { type: 'text', text: 'You are an interactive CLI tool that helps users with software engineering tasks.', cache_control: { type: 'ephemeral' } },
];

/** What a request starts from before a mutation or a twist. */
export interface MessagesBaseOptions {
  model: string;
  question: string;
  stream: boolean;
  tools: boolean;
  system: boolean;
  thinking: boolean;
  /** A tool round trip (text, tool_use, tool_result) rather than one question. */
  toolLoop: boolean;
  maxTokens: number;
  metadata: boolean;
}

/** The models a Messages request names: mostly served, on each path; some not. */
export const messagesModelArb = (context: FuzzContext): fc.Arbitrary<string> => {
  const { native, bridged, gemini, both } = context.messagesModels;
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(native) },
    { weight: 2, arbitrary: fc.constant(bridged) },
    { weight: 2, arbitrary: fc.constant(gemini) },
    { weight: 2, arbitrary: fc.constant(both) },
    { weight: 1, arbitrary: fc.constantFrom(context.model, `${native}-gizmo-${context.assistantId}`, `${bridged}-gizmo-${context.assistantId}`) },
    // A model the simulator knows but no channel serves, and one nobody knows.
    { weight: 1, arbitrary: fc.constantFrom('claude-opus-4-6', 'no-such-model', 'claude-*', '') },
  );
};

export const messagesBaseOptionsArb = (context: FuzzContext): fc.Arbitrary<MessagesBaseOptions> =>
  fc.record({
    model: messagesModelArb(context),
    question: fc.constantFrom(...QUESTIONS),
    stream: fc.boolean(),
    tools: fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    system: fc.boolean(),
    thinking: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
    toolLoop: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
    maxTokens: fc.constantFrom(32, 1_024, 4_096, 32_000),
    metadata: fc.boolean(),
  });

/** The first user turn: a text block that may carry a `[sim:…]` directive after the question. */
export const userTurn = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });

/** A tool round trip as Claude Code replays it: question, text and tool_use, tool_result. */
export const TOOL_LOOP_MESSAGES = [
  userTurn(WEATHER_QUESTION),
  {
    role: 'assistant',
    content: [
      { type: 'text', text: "I'll check the weather in Paris." },
      { type: 'tool_use', id: 'toolu_01FuzzWeather', name: 'get_weather', input: { city: 'Paris' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01FuzzWeather', content: 'Sunny, 21°C' }] },
];

/** A Claude-Code-like Messages request (plain JSON); `directive` goes after the question. */
export function messagesBase(options: MessagesBaseOptions, directive = ''): Record<string, unknown> {
  // A thinking budget needs room below max_tokens.
  const maxTokens = options.thinking ? Math.max(options.maxTokens, 2_048) : options.maxTokens;
  const question = directive ? `${options.question} ${directive}` : options.question;
  return {
    model: options.model,
    max_tokens: maxTokens,
    messages: options.toolLoop && !directive ? TOOL_LOOP_MESSAGES : [userTurn(question)],
    ...(options.system ? { system: CLAUDE_CODE_SYSTEM } : {}),
    ...(options.tools || options.toolLoop ? { tools: [WEATHER_TOOL, TIME_TOOL, BASH_TOOL] } : {}),
    ...(options.thinking ? { thinking: { type: 'enabled', budget_tokens: 1_024 } } : {}),
    ...(options.metadata ? { metadata: { user_id: 'user_5f1e_account__session_0b7c9d2e-fuzz' } } : {}),
    ...(options.stream ? { stream: true } : {}),
  };
}

/** count_tokens takes the prompt only: no max_tokens, stream or metadata. */
export function countTokensBody(body: Record<string, unknown>): Record<string, unknown> {
  const { max_tokens: _max, stream: _stream, metadata: _metadata, ...prompt } = body;
  return prompt;
}
