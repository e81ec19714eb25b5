/** Test-only: replay Anthropic stream events through the transformer, as the relay's pump does. */
import type { ChatCompletionChunk } from '@chat-relay/contract';
import type { RelayError } from '../../errors/relay-error';
import type { SseEvent } from '../../hub/upstream-adapter';
import { AnthropicStreamTransformer } from '../upstream/anthropic-stream-transformer';

export interface StreamRun {
  transformer: AnthropicStreamTransformer;
  /** Every chunk sent to the caller, parsed, in order. */
  chunks: ChatCompletionChunk[];
  /** Error steps, in order (at most one is expected). */
  errors: RelayError[];
  /** Chunks and errors in the order the caller would see them. */
  steps: Array<{ chunk: ChatCompletionChunk } | { error: RelayError }>;
}

export function runAnthropicStream(events: readonly SseEvent[], callerWantsUsage = false): StreamRun {
  const transformer = new AnthropicStreamTransformer({
    publicModel: 'my-model',
    callerWantsUsage,
    secrets: ['sk-ant-api03-secret-key'],
    created: 1700000000,
  });
  const run: StreamRun = { transformer, chunks: [], errors: [], steps: [] };
  for (const step of [...events.flatMap((event) => transformer.transform(event)), ...transformer.finish()]) {
    if (step.kind === 'chunk') {
      const chunk = JSON.parse(step.json) as ChatCompletionChunk;
      run.chunks.push(chunk);
      run.steps.push({ chunk });
    } else {
      run.errors.push(step.error);
      run.steps.push({ error: step.error });
    }
  }
  return run;
}

/** `[delta, finish_reason]` of every chunk that has a choice: the stream's content, compactly. */
export const deltasOf = (chunks: readonly ChatCompletionChunk[]) =>
  chunks.filter((chunk) => chunk.choices.length > 0).map((chunk) => [chunk.choices[0]?.delta, chunk.choices[0]?.finish_reason]);

export interface ReassembledCall {
  index: number;
  id?: string;
  name?: string;
  arguments: string;
  /** How many deltas of this call carried an id / a name. */
  idDeltas: number;
  nameDeltas: number;
}

/** The caller's view of the streamed tool calls, by `index`. */
export function reassembleToolCalls(chunks: readonly ChatCompletionChunk[]): ReassembledCall[] {
  const calls = new Map<number, ReassembledCall>();
  for (const delta of chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []))) {
    const call = calls.get(delta.index) ?? { index: delta.index, arguments: '', idDeltas: 0, nameDeltas: 0 };
    if (delta.id !== undefined) {
      call.id ??= delta.id;
      call.idDeltas += 1;
    }
    if (delta.function?.name !== undefined) {
      call.name ??= delta.function.name;
      call.nameDeltas += 1;
    }
    call.arguments += delta.function?.arguments ?? '';
    calls.set(delta.index, call);
  }
  return [...calls.values()];
}
