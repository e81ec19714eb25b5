import fc from 'fast-check';
import type { FuzzContext } from './fuzz-context';
import { QUESTIONS, WEATHER_QUESTION } from './messages-bodies';

/** The function tools the simulator calls when their names' words are in the question. */
export const RESPONSES_TOOLS = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Get the current weather in a given city',
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'], additionalProperties: false },
    strict: true,
  },
  { type: 'function', name: 'get_time', description: 'Local time in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
];

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, sky: { type: 'string', enum: ['clear', 'cloudy', 'rain'] } },
  required: ['city', 'celsius', 'sky'],
  additionalProperties: false,
};

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** How `input` is given: as OpenAI's SDKs and agents send it. */
export type InputShape = 'string' | 'easy-message' | 'typed-message' | 'developer-first' | 'tool-round-trip' | 'reasoning-replayed' | 'image';

/** What a Responses request starts from before a mutation or a twist. */
export interface ResponsesBaseOptions {
  model: string;
  question: string;
  input: InputShape;
  stream: boolean;
  tools: boolean;
  instructions: boolean;
  format: 'none' | 'json_schema' | 'json_object' | 'text';
  reasoning: boolean;
  maxOutputTokens: number | undefined;
  store: boolean | undefined;
  /** Which stored response it continues, if any. */
  previous: keyof FuzzContext['responses']['previous'] | 'none' | 'unknown';
  metadata: boolean;
}

/** The models a Responses request names: mostly served, on every path; some not. */
export const responsesModelArb = (context: FuzzContext): fc.Arbitrary<string> => {
  const { native, chatOnly, anthropic, gemini, mixed } = context.responses.models;
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(native) },
    { weight: 2, arbitrary: fc.constant(chatOnly) },
    { weight: 3, arbitrary: fc.constant(anthropic) },
    { weight: 3, arbitrary: fc.constant(gemini) },
    { weight: 2, arbitrary: fc.constant(mixed) },
    { weight: 1, arbitrary: fc.constantFrom(`${native}-gizmo-${context.assistantId}`, `${anthropic}-gizmo-${context.assistantId}`, `${native}-gizmo-g-nowhere`) },
    // Served to other families only, unknown, or not a name at all.
    { weight: 1, arbitrary: fc.constantFrom(context.model, context.messagesModels.native, 'gpt-5-pro', 'no-such-model', 'gpt-*', '') },
  );
};

export const responsesBaseOptionsArb = (context: FuzzContext): fc.Arbitrary<ResponsesBaseOptions> =>
  fc.record({
    model: responsesModelArb(context),
    question: fc.constantFrom(...QUESTIONS),
    input: fc.constantFrom<InputShape>('string', 'string', 'easy-message', 'typed-message', 'developer-first', 'tool-round-trip', 'reasoning-replayed', 'image'),
    stream: fc.boolean(),
    tools: fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    instructions: fc.boolean(),
    format: fc.oneof({ weight: 6, arbitrary: fc.constant<ResponsesBaseOptions['format']>('none') }, { weight: 1, arbitrary: fc.constantFrom<ResponsesBaseOptions['format']>('json_schema', 'json_object', 'text') }),
    reasoning: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
    maxOutputTokens: fc.constantFrom(undefined, undefined, 16, 256, 4_096),
    store: fc.constantFrom(undefined, undefined, true, false),
    previous: fc.oneof(
      { weight: 6, arbitrary: fc.constant<ResponsesBaseOptions['previous']>('none') },
      { weight: 1, arbitrary: fc.constantFrom<ResponsesBaseOptions['previous']>('native', 'bridged', 'chained', 'unstored', 'unknown') },
    ),
    metadata: fc.boolean(),
  });

const userText = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

/** `input` in the shape asked, the question (with its directive) in the last user message. */
function inputOf(shape: InputShape, question: string): unknown {
  switch (shape) {
    case 'string':
      return question;
    case 'easy-message':
      return [{ role: 'user', content: question }];
    case 'typed-message':
      return [userText(question)];
    case 'developer-first':
      return [{ role: 'developer', content: 'Answer in one sentence.' }, { role: 'user', content: question }];
    case 'tool-round-trip':
      return [
        { role: 'user', content: WEATHER_QUESTION },
        { type: 'function_call', call_id: 'call_fuzz_weather', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
        { type: 'function_call_output', call_id: 'call_fuzz_weather', output: 'Sunny, 21°C' },
        ...(question === WEATHER_QUESTION ? [] : [{ role: 'user', content: question }]),
      ];
    case 'reasoning-replayed':
      return [
        { role: 'user', content: 'Hello.' },
        { type: 'reasoning', id: 'rs_fuzz_1', summary: [{ type: 'summary_text', text: 'The user greets me.' }] },
        { type: 'message', id: 'msg_fuzz_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello! How can I help?', annotations: [] }] },
        { role: 'user', content: question },
      ];
    case 'image':
      return [{ role: 'user', content: [{ type: 'input_text', text: question }, { type: 'input_image', image_url: `data:image/png;base64,${PNG_1X1}`, detail: 'low' }] }];
  }
}

const formatOf = (format: ResponsesBaseOptions['format']) =>
  format === 'json_schema' ? { type: 'json_schema', name: 'weather', schema: WEATHER_SCHEMA, strict: true } : { type: format };

/** A Responses request as the OpenAI SDK sends it (plain JSON); `directive` goes after the question. */
export function responsesBase(context: FuzzContext, options: ResponsesBaseOptions, directive = ''): Record<string, unknown> {
  const question = directive ? `${options.question} ${directive}` : options.question;
  const previous = options.previous === 'none' ? undefined : options.previous === 'unknown' ? 'resp_fuzz_nowhere' : context.responses.previous[options.previous];
  return {
    model: options.model,
    input: inputOf(options.input, question),
    ...(options.instructions ? { instructions: 'You are a terse weather assistant.' } : {}),
    ...(options.tools || options.input === 'tool-round-trip' ? { tools: RESPONSES_TOOLS } : {}),
    ...(options.format === 'none' ? {} : { text: { format: formatOf(options.format) } }),
    ...(options.reasoning ? { reasoning: { effort: 'low', summary: 'auto' } } : {}),
    ...(options.maxOutputTokens === undefined ? {} : { max_output_tokens: options.maxOutputTokens }),
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(previous === undefined ? {} : { previous_response_id: previous }),
    ...(options.metadata ? { metadata: { session: 'fuzz', attempt: '1' } } : {}),
    ...(options.stream ? { stream: true } : {}),
  };
}
