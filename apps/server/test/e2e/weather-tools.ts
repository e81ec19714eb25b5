import type OpenAI from 'openai';

type ChatCompletionChunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type ChatCompletionTool = OpenAI.Chat.Completions.ChatCompletionTool;
type ChatCompletionMessageToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;

/** Two tools; the simulator calls every tool whose name's words all appear in the user's text. */
export const weatherTools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
        required: ['city', 'unit'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_time',
      description: 'Local time in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

/** Names both tools, so a parallel-capable model calls both. */
export const askForBoth = 'Please get weather and get time for Paris.';

/** What the test "runs" for a call: a deterministic result naming the tool. */
export function runWeatherTool(name: string, args: Record<string, unknown>): string {
  if (name === 'get_weather') return JSON.stringify({ city: args['city'], temperature: 21, sky: 'sunny' });
  if (name === 'get_time') return JSON.stringify({ city: args['city'], time: '14:05' });
  throw new Error(`unknown tool ${name}`);
}

export interface StreamedCall {
  index: number;
  id: string | undefined;
  name: string | undefined;
  arguments: string;
  /** How many deltas of this call carried an `id` / a `function.name`. */
  idDeltas: number;
  nameDeltas: number;
  /** The call's first delta carried both its `id` and its `function.name`. */
  openedWithIdAndName: boolean;
}

/** Reassembles `delta.tool_calls` fragments by `index`, counting where ids and names came. */
export function reassembleToolCalls(chunks: readonly ChatCompletionChunk[]): StreamedCall[] {
  const calls = new Map<number, StreamedCall>();
  for (const chunk of chunks) {
    for (const delta of chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? [])) {
      const call = calls.get(delta.index) ?? {
        index: delta.index,
        id: undefined,
        name: undefined,
        arguments: '',
        idDeltas: 0,
        nameDeltas: 0,
        openedWithIdAndName: Boolean(delta.id && delta.function?.name),
      };
      if (delta.id) {
        call.id = delta.id;
        call.idDeltas += 1;
      }
      if (delta.function?.name) {
        call.name = delta.function.name;
        call.nameDeltas += 1;
      }
      call.arguments += delta.function?.arguments ?? '';
      calls.set(delta.index, call);
    }
  }
  return [...calls.values()].sort((a, b) => a.index - b.index);
}

/** Function calls as plain `{ id, name, arguments }`, to compare calls that came different ways. */
export function functionCalls(
  calls: readonly ChatCompletionMessageToolCall[] | undefined,
): { id: string | undefined; name: string | undefined; arguments: string }[] {
  return (calls ?? []).map((call) => {
    if (call.type !== 'function') throw new Error(`expected a function call, got ${call.type}`);
    return { id: call.id, name: call.function.name, arguments: call.function.arguments };
  });
}

/** Drains an SDK stream into its chunks. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}
