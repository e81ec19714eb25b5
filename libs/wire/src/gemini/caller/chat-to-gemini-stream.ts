import type { GeminiCandidateResponse, GeminiGenerateContentResponse, GeminiPartParam } from '@chat-relay/contract';
import type { RelayError } from '../../errors/relay-error';
import type { ChunkTransformer } from '../../hub/chunk-transformer';
import type { StreamStep } from '../../hub/upstream-adapter';
import { readHubChunk } from '../../hub/read-hub-chunk';
import { plainToolCall, ToolCallAssembler, type AssembledToolCall } from '../../hub/tool-call-assembler';
import { isJsonObject, isNumber, isString, type JsonObject } from '../../json/json-checks';
import { reasoningTextOf } from '../../anthropic-messages/reasoning-text-of';
import { convertChatUsageToGemini, functionArgsOf, geminiResponseIdOf, mapFinishReasonToGemini } from './convert-chat-to-gemini-parts';

export interface ChatToGeminiStreamOptions {
  /** The model name the caller put in the path, which every chunk's `modelVersion` carries. */
  publicModel: string;
  /** The caller asked for thoughts: reasoning text goes out as thought parts. */
  includeThoughts: boolean;
}

interface ChoiceState {
  /** Calls not yet sent, in the order they started. */
  calls: AssembledToolCall[];
  assembler: ToolCallAssembler<AssembledToolCall>;
  finishReason: string | null;
}

const text = (value: unknown): string => (isString(value) ? value : '');

/**
 * Hub chunks → `streamGenerateContent` chunks, each a GenerateContentResponse with the parts
 * that are new: text deltas as text parts (thought parts for reasoning, when asked for), as they
 * come. Gemini sends a function call whole, so a tool call's fragments are gathered and the call
 * goes out as one functionCall part (its id kept) once its choice has a finish reason, or at the
 * end. The usage chunk (or finish()) ends the stream with one chunk holding every candidate's
 * finishReason (see mapFinishReasonToGemini) and the usageMetadata; every chunk carries the
 * caller's model as `modelVersion` and the hub's id as `responseId`. A chunk with an `error` is
 * one error step; nothing follows the end or an error.
 */
export class ChatToGeminiStream implements ChunkTransformer {
  private responseId: string | undefined;
  private ended = false;
  private readonly choices = new Map<number, ChoiceState>();
  private usage: JsonObject | undefined;

  constructor(private readonly options: ChatToGeminiStreamOptions) {}

  transform(chunkJson: string): StreamStep[] {
    if (this.ended) return [];
    const read = readHubChunk(chunkJson);
    if (read.error) return this.stopWith(read.error);
    const { chunk } = read;
    this.responseId ??= geminiResponseIdOf(chunk['id']);
    const steps: StreamStep[] = [];
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
    for (const choice of choices) {
      if (!isJsonObject(choice)) continue;
      const index = isNumber(choice['index']) ? choice['index'] : 0;
      const state = this.choice(index);
      if (isJsonObject(choice['delta'])) steps.push(...this.delta(index, state, choice['delta']));
      if (isString(choice['finish_reason']) && state.finishReason === null) {
        state.finishReason = choice['finish_reason'];
        // The calls are complete: they go out now, the finish reason with the usage at the end.
        const calls = this.takeCalls(state);
        if (calls.length > 0) steps.push(this.response([{ content: { role: 'model', parts: calls }, index }]));
      }
    }
    if (isJsonObject(chunk['usage'])) {
      this.usage = chunk['usage'];
      // Usage on every chunk (vLLM's continuous stats) is not the end; the final usage chunk is.
      const finished = [...this.choices.values()].every((state) => state.finishReason !== null);
      if (choices.length === 0 || (this.choices.size > 0 && finished)) steps.push(...this.end());
    }
    return steps;
  }

  finish(): StreamStep[] {
    return this.ended ? [] : this.end();
  }

  private choice(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (!state) {
      state = { calls: [], assembler: new ToolCallAssembler(plainToolCall), finishReason: null };
      this.choices.set(index, state);
    }
    return state;
  }

  private delta(index: number, state: ChoiceState, delta: JsonObject): StreamStep[] {
    const parts: GeminiPartParam[] = [];
    const reasoning = this.options.includeThoughts ? reasoningTextOf(delta) : '';
    if (reasoning !== '') parts.push({ text: reasoning, thought: true });
    for (const piece of [text(delta['content']), text(delta['refusal'])]) if (piece !== '') parts.push({ text: piece });
    const toolCalls = delta['tool_calls'];
    if (Array.isArray(toolCalls)) {
      for (const delta of toolCalls) {
        if (!isJsonObject(delta)) continue;
        const { call, started } = state.assembler.add(delta);
        if (started) state.calls.push(call);
      }
    }
    return parts.length > 0 ? [this.response([{ content: { role: 'model', parts }, index }])] : [];
  }

  private takeCalls(state: ChoiceState): GeminiPartParam[] {
    const calls = state.calls.splice(0).filter((call) => call.name !== '');
    return calls.map((call) => ({ functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: functionArgsOf(call.args) } }));
  }

  private end(): StreamStep[] {
    this.ended = true;
    if (this.choices.size === 0) this.choice(0);
    const candidates: GeminiCandidateResponse[] = [...this.choices.entries()].map(([index, state]) => ({
      content: { role: 'model', parts: this.takeCalls(state) },
      finishReason: mapFinishReasonToGemini(state.finishReason),
      index,
    }));
    return [this.response(candidates, this.usage ? { usageMetadata: convertChatUsageToGemini(this.usage) } : {})];
  }

  private response(candidates: GeminiCandidateResponse[], extra: Partial<GeminiGenerateContentResponse> = {}): StreamStep {
    const response: GeminiGenerateContentResponse = {
      candidates,
      ...extra,
      modelVersion: this.options.publicModel,
      responseId: this.responseId ?? 'bridged',
    };
    return { kind: 'chunk', json: JSON.stringify(response) };
  }

  private stopWith(error: RelayError): StreamStep[] {
    this.ended = true;
    return [{ kind: 'error', error }];
  }
}
