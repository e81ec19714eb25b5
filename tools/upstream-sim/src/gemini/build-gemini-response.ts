import type { FunctionToolCall } from '@chat-relay/contract';
import type { AnswerContent } from '../build-chat-completion';
import { asFunctionCall } from '../decide-answer';
import { countTokens, splitIntoStreamTokens } from '../tokens';
import type { GeminiFinishReason, GenerateContentResponse, GroundingMetadata, ResponsePart, UsageMetadata } from './gemini-api';

export interface GeminiMeta {
  model: string;
  responseId: string;
  /** Carried by the first functionCall part, as Gemini 3 does. */
  thoughtSignature: string;
  /** Set when the request asked for thinking (`thinkingConfig.thinkingBudget` > 0). */
  thoughtsTokenCount: number | undefined;
  /** The thought summary, when the request asked for thoughts: a `thought: true` part first. */
  thoughts?: string;
  /** Set when the request offered Google Search: the finished candidate says what it searched. */
  grounding?: GroundingMetadata;
}

/** Word tokens per streamed text event: Gemini sends text in a few larger pieces. */
const tokensPerTextEvent = 3;

function finishReasonOf(plan: AnswerContent): GeminiFinishReason {
  // Like the real API, a function call ends with STOP: there is no tool-specific reason.
  if (plan.kind === 'tool_calls') return 'STOP';
  switch (plan.finishReason) {
    case 'stop':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    default: {
      const unexpected: never = plan.finishReason;
      throw new Error(`unhandled finish reason ${String(unexpected)}`);
    }
  }
}

function functionCallPart(call: FunctionToolCall, signature: string | undefined): ResponsePart {
  const args: unknown = JSON.parse(call.function.arguments);
  const part: ResponsePart = {
    functionCall: {
      name: call.function.name,
      args: typeof args === 'object' && args !== null && !Array.isArray(args) ? { ...args } : {},
    },
  };
  return signature === undefined ? part : { ...part, thoughtSignature: signature };
}

function callTokens(call: FunctionToolCall): number {
  return countTokens(call.function.name) + countTokens(call.function.arguments);
}

function usageMetadata(promptTokens: number, candidatesTokens: number, thoughts: number | undefined): UsageMetadata {
  return {
    promptTokenCount: promptTokens,
    candidatesTokenCount: candidatesTokens,
    totalTokenCount: promptTokens + candidatesTokens + (thoughts ?? 0),
    ...(thoughts !== undefined ? { thoughtsTokenCount: thoughts } : {}),
  };
}

function textOfPlan(plan: AnswerContent): string | undefined {
  return plan.kind === 'text' ? plan.content : plan.preamble;
}

function responseOf(
  parts: ResponsePart[],
  finishReason: GeminiFinishReason | undefined,
  usage: UsageMetadata,
  meta: GeminiMeta,
): GenerateContentResponse {
  // Grounding is said once, with the finished candidate, as Google does.
  const grounding = finishReason && meta.grounding ? { groundingMetadata: meta.grounding } : {};
  return {
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), ...grounding, index: 0 }],
    usageMetadata: usage,
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}

/** The non-streamed response: text and/or functionCall parts, the first call signed. */
export function buildGenerateContentResponse(plan: AnswerContent, meta: GeminiMeta): GenerateContentResponse {
  const text = textOfPlan(plan);
  const calls = plan.kind === 'tool_calls' ? plan.toolCalls.map(asFunctionCall) : [];
  const parts: ResponsePart[] = [
    ...(meta.thoughts !== undefined ? [{ text: meta.thoughts, thought: true as const }] : []),
    ...(text !== undefined ? [{ text }] : []),
    ...calls.map((call, index) => functionCallPart(call, index === 0 ? meta.thoughtSignature : undefined)),
  ];
  const usage = usageMetadata(plan.usage.prompt_tokens, plan.usage.completion_tokens, meta.thoughtsTokenCount);
  return responseOf(parts, finishReasonOf(plan), usage, meta);
}

/**
 * The streamed responses: text in events of a few words, each function call whole in its own
 * event, then a last event with an empty text part, the finish reason and the final usage.
 * Every event carries the usage so far, as the real API does.
 */
export function buildGenerateContentEvents(plan: AnswerContent, meta: GeminiMeta): GenerateContentResponse[] {
  const promptTokens = plan.usage.prompt_tokens;
  const tokens = splitIntoStreamTokens(textOfPlan(plan) ?? '');
  const events: GenerateContentResponse[] = [];
  if (meta.thoughts !== undefined) events.push(responseOf([{ text: meta.thoughts, thought: true }], undefined, usageMetadata(promptTokens, 0, meta.thoughtsTokenCount), meta));
  let candidatesTokens = 0;
  for (let start = 0; start < tokens.length; start += tokensPerTextEvent) {
    const group = tokens.slice(start, start + tokensPerTextEvent);
    candidatesTokens += group.length;
    const usage = usageMetadata(promptTokens, candidatesTokens, meta.thoughtsTokenCount);
    events.push(responseOf([{ text: group.join('') }], undefined, usage, meta));
  }
  const calls = plan.kind === 'tool_calls' ? plan.toolCalls.map(asFunctionCall) : [];
  for (const [index, call] of calls.entries()) {
    candidatesTokens += callTokens(call);
    const usage = usageMetadata(promptTokens, candidatesTokens, meta.thoughtsTokenCount);
    events.push(responseOf([functionCallPart(call, index === 0 ? meta.thoughtSignature : undefined)], undefined, usage, meta));
  }
  const finalUsage = usageMetadata(promptTokens, plan.usage.completion_tokens, meta.thoughtsTokenCount);
  events.push(responseOf([{ text: '' }], finishReasonOf(plan), finalUsage, meta));
  return events;
}
