import type { ChatCompletionChunk, FinishReason, Usage } from '@chat-relay/contract';

/** A tool call put together from its streamed fragments. */
export interface AssembledToolCall {
  index: number;
  id: string;
  name: string;
  /** The JSON text as streamed so far (complete once the stream ends). */
  arguments: string;
}

/** The answer as far as the stream has got: what the page shows while it grows. */
export interface AssembledAnswer {
  content: string;
  refusal: string;
  /** In index order. */
  toolCalls: AssembledToolCall[];
  finishReason: FinishReason | null;
  /** Only on the last chunk, when the request asked `stream_options.include_usage`. */
  usage: Usage | null;
  /** The model that answered, as the chunks name it. */
  model: string | null;
}

export const emptyAnswer = (): AssembledAnswer => ({ content: '', refusal: '', toolCalls: [], finishReason: null, usage: null, model: null });

/**
 * Adds one chunk to the answer (the first choice only: the playground asks for one). Tool call
 * fragments are tied together by `index`: the id and name come once, the arguments in pieces.
 */
export function accumulateChunk(answer: AssembledAnswer, chunk: ChatCompletionChunk): AssembledAnswer {
  const next: AssembledAnswer = { ...answer, model: answer.model ?? (chunk.model || null) };
  if (chunk.usage) next.usage = chunk.usage;
  const choice = chunk.choices.find((candidate) => candidate.index === 0);
  if (!choice) return next;
  const { delta } = choice;
  if (delta.content) next.content = answer.content + delta.content;
  if (delta.refusal) next.refusal = answer.refusal + delta.refusal;
  if (choice.finish_reason) next.finishReason = choice.finish_reason;
  if (delta.tool_calls && delta.tool_calls.length > 0) {
    const calls = new Map(answer.toolCalls.map((call) => [call.index, call]));
    for (const fragment of delta.tool_calls) {
      const call = calls.get(fragment.index) ?? { index: fragment.index, id: '', name: '', arguments: '' };
      calls.set(fragment.index, {
        ...call,
        id: call.id || (fragment.id ?? ''),
        name: call.name || (fragment.function?.name ?? ''),
        arguments: call.arguments + (fragment.function?.arguments ?? ''),
      });
    }
    next.toolCalls = [...calls.values()].sort((left, right) => left.index - right.index);
  }
  return next;
}

/** Arguments as indented JSON once they parse; as streamed until then (or when the model sent invalid JSON). */
export function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
