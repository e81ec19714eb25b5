import { randomUUID } from 'node:crypto';
import type { RelayError } from '../../errors/relay-error';
import { upstreamError } from '../../errors/relay-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { completionIdOf, convertGeminiFunctionCall, isAnswerText, isFunctionCallPart, isThoughtText } from '../caller/convert-gemini-function-call';
import { convertGeminiUsage, type OpenAiUsage } from './convert-gemini-usage';
import { GeminiErrorBodySchema, GenerateContentResponseSchema, type GeminiCandidate } from '../gemini-api';
import { geminiFinishFailure, mapGeminiStreamError } from './gemini-error';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { DeliveredText } from '../../hub/delivered-text';

export interface GeminiStreamTransformerOptions extends StreamTransformerOptions {
  /** Unix seconds stamped on every chunk. */
  created: number;
}

interface ChoiceState {
  /** Tool calls sent so far in this choice: the next call's `index`. */
  toolCalls: number;
  finished: boolean;
}

type Delta = Record<string, unknown>;

/**
 * `streamGenerateContent?alt=sse` events (each a whole GenerateContentResponse, no [DONE]) →
 * OpenAI chunks: a first `role: assistant` chunk per choice, a content chunk per text part,
 * one `tool_calls` delta per functionCall (Gemini sends a call whole: id, name and the complete
 * arguments at once, with its own `index`, counted across the stream), `finish_reason` exactly
 * once per choice (STOP after a function call → `tool_calls`), and — when the caller asked —
 * the usage chunk (`choices: []`) at the end, from the last `usageMetadata` Gemini sent.
 */
export class GeminiStreamTransformer implements StreamTransformer {
  usage: ReportedUsage | undefined;
  private readonly deliveredSoFar = new DeliveredText();

  get deliveredChars(): number {
    return this.deliveredSoFar.chars;
  }

  get deliveredText(): string {
    return this.deliveredSoFar.text;
  }
  private openAiUsage: OpenAiUsage | undefined;
  private responseId: string | undefined;
  private failed = false;
  private readonly choices = new Map<number, ChoiceState>();

  constructor(private readonly options: GeminiStreamTransformerOptions) {}

  get complete(): boolean {
    return this.choices.size > 0 && [...this.choices.values()].every((choice) => choice.finished);
  }

  transform(event: SseEvent): StreamStep[] {
    if (this.failed || event.data.trim() === '[DONE]') return [];
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      return this.stopWith(upstreamError('The upstream provider sent a malformed stream event.', 'bad_response'));
    }
    const errorBody = GeminiErrorBodySchema.safeParse(json);
    if (errorBody.success) return this.stopWith(mapGeminiStreamError(errorBody.data.error, this.options.secrets));
    const parsed = GenerateContentResponseSchema.safeParse(json);
    if (!parsed.success) {
      return this.stopWith(upstreamError('The upstream provider sent an unexpected stream event.', 'bad_response'));
    }
    const response = parsed.data;
    this.responseId ??= response.responseId ?? randomUUID();
    if (response.usageMetadata) {
      const { usage, reported } = convertGeminiUsage(response.usageMetadata);
      this.openAiUsage = usage;
      this.usage = reported;
    }

    const steps: StreamStep[] = [];
    const candidates = response.candidates ?? [];
    if (candidates.length === 0 && response.promptFeedback?.blockReason) {
      const choice = this.choiceState(0, false, steps);
      if (!choice.finished) {
        choice.finished = true;
        steps.push(this.chunk(0, {}, 'content_filter'));
      }
    }
    for (const [position, candidate] of candidates.entries()) {
      const failure = this.convertCandidate(candidate, candidate.index ?? position, steps);
      if (failure) return [...steps, ...this.stopWith(failure)];
    }
    return steps;
  }

  finish(): StreamStep[] {
    if (this.failed || !this.options.callerWantsUsage || !this.openAiUsage || !this.complete) return [];
    const chunk = { ...this.envelope(), choices: [], usage: this.openAiUsage };
    return [{ kind: 'chunk', json: JSON.stringify(chunk) }];
  }

  private convertCandidate(candidate: GeminiCandidate, index: number, steps: StreamStep[]): RelayError | undefined {
    const parts = candidate.content?.parts ?? [];
    const choice = this.choiceState(index, parts[0] !== undefined && isAnswerText(parts[0]), steps);
    if (choice.finished) return undefined;
    for (const part of parts) {
      if (isFunctionCallPart(part)) {
        const call = convertGeminiFunctionCall(part, `${this.responseId}:${index}:${choice.toolCalls}`);
        this.deliveredSoFar.add(call.function.arguments);
        steps.push(this.chunk(index, { tool_calls: [{ index: choice.toolCalls, ...call }] }));
        choice.toolCalls += 1;
      } else if (isAnswerText(part) && part.text !== '') {
        this.deliveredSoFar.add(part.text);
        steps.push(this.chunk(index, { content: part.text }));
      } else if (isThoughtText(part) && part.text !== '') {
        this.deliveredSoFar.add(part.text);
        steps.push(this.chunk(index, { reasoning_content: part.text }));
      }
    }
    if (candidate.finishReason === undefined) return undefined;
    const outcome = mapGeminiFinishReason(candidate.finishReason, choice.toolCalls > 0);
    if (outcome.kind === 'failed') return geminiFinishFailure(outcome.reason, candidate.finishMessage, this.options.secrets);
    choice.finished = true;
    steps.push(this.chunk(index, {}, outcome.finishReason));
    return undefined;
  }

  /**
   * The state of a choice, announced by a `role` chunk the first time it is seen — with
   * `content: ""` when it begins with text, `null` otherwise, as OpenAI does: a caller that
   * accumulates the deltas of a tool-call-only answer must end with `content: null`, not "".
   */
  private choiceState(index: number, startsWithText: boolean, steps: StreamStep[]): ChoiceState {
    let choice = this.choices.get(index);
    if (!choice) {
      choice = { toolCalls: 0, finished: false };
      this.choices.set(index, choice);
      steps.push(this.chunk(index, { role: 'assistant', content: startsWithText ? '' : null }));
    }
    return choice;
  }

  private chunk(index: number, delta: Delta, finishReason: string | null = null): StreamStep {
    const chunk = { ...this.envelope(), choices: [{ index, delta, logprobs: null, finish_reason: finishReason }] };
    return { kind: 'chunk', json: JSON.stringify(chunk) };
  }

  private envelope() {
    return {
      id: completionIdOf(this.responseId ?? ''),
      object: 'chat.completion.chunk',
      created: this.options.created,
      model: this.options.publicModel,
    };
  }

  private stopWith(error: RelayError): StreamStep[] {
    this.failed = true;
    return [{ kind: 'error', error }];
  }
}
