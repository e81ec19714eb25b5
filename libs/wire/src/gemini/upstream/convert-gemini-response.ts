import { randomUUID } from 'node:crypto';
import type { RelayError } from '../../errors/relay-error';
import { upstreamError } from '../../errors/relay-error';
import type { ConvertedCompletion } from '../../hub/provider-adapter';
import {
  completionIdOf,
  convertGeminiFunctionCall,
  isAnswerText,
  isFunctionCallPart,
  isThoughtText,
  type OpenAiToolCall,
} from '../caller/convert-gemini-function-call';
import { convertGeminiUsage } from './convert-gemini-usage';
import { GenerateContentResponseSchema, type GeminiCandidate } from '../gemini-api';
import { geminiFinishFailure } from './gemini-error';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';

export interface ConvertGeminiResponseArgs {
  text: string;
  /** The model name the caller sent. */
  publicModel: string;
  /** Unix seconds (Gemini's answer carries no creation time). */
  created: number;
}

interface OpenAiChoice {
  index: number;
  message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: OpenAiToolCall[]; reasoning_content?: string };
  logprobs: null;
  finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter';
}

/**
 * A `generateContent` answer → an OpenAI `chat.completion`: one choice per candidate, text
 * parts joined, thought parts (asked for with a reasoning effort) joined as `reasoning_content`, each functionCall a tool call with a generated stable id (`content: null` when
 * there is no text), a prompt blocked before any candidate → one `content_filter` choice.
 */
export function convertGeminiResponse({ text, publicModel, created }: ConvertGeminiResponseArgs): ConvertedCompletion {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: upstreamError('The upstream provider sent a response that is not JSON.', 'bad_response') };
  }
  const parsed = GenerateContentResponseSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, error: upstreamError('The upstream provider sent a malformed completion.', 'bad_response') };
  }
  const response = parsed.data;
  const responseId = response.responseId ?? randomUUID();
  const candidates = response.candidates ?? [];

  const choices: OpenAiChoice[] = [];
  if (candidates.length === 0) {
    if (!response.promptFeedback?.blockReason) {
      return { ok: false, error: upstreamError('The upstream provider sent no candidates.', 'bad_response') };
    }
    choices.push(emptyChoice(0, 'content_filter'));
  }
  for (const [position, candidate] of candidates.entries()) {
    const converted = convertCandidate(candidate, candidate.index ?? position, responseId);
    if (!converted.ok) return converted;
    choices.push(converted.choice);
  }

  const usage = response.usageMetadata && convertGeminiUsage(response.usageMetadata);
  const body: Record<string, unknown> = {
    id: completionIdOf(responseId),
    object: 'chat.completion',
    created,
    model: publicModel,
    choices,
  };
  if (usage) body['usage'] = usage.usage;
  return { ok: true, body, usage: usage?.reported, deliveredChars: deliveredCharsOf(choices) };
}

function convertCandidate(
  candidate: GeminiCandidate,
  index: number,
  responseId: string,
): { ok: true; choice: OpenAiChoice } | { ok: false; error: RelayError } {
  const parts = candidate.content?.parts ?? [];
  const texts = parts.filter(isAnswerText).map((part) => part.text);
  const toolCalls = parts
    .filter(isFunctionCallPart)
    .map((part, ordinal) => convertGeminiFunctionCall(part, `${responseId}:${index}:${ordinal}`));
  const outcome = mapGeminiFinishReason(candidate.finishReason ?? 'STOP', toolCalls.length > 0);
  if (outcome.kind === 'failed') return { ok: false, error: geminiFinishFailure(outcome.reason, candidate.finishMessage, []) }; // the relay redacts with the channel's keys

  const choice = emptyChoice(index, outcome.finishReason);
  choice.message.content = texts.length > 0 ? texts.join('') : null;
  const thoughts = parts.filter(isThoughtText).map((part) => part.text).join('');
  if (thoughts !== '') choice.message.reasoning_content = thoughts;
  if (toolCalls.length > 0) choice.message.tool_calls = toolCalls;
  return { ok: true, choice };
}

function emptyChoice(index: number, finishReason: OpenAiChoice['finish_reason']): OpenAiChoice {
  const message: OpenAiChoice['message'] = { role: 'assistant', content: null, refusal: null };
  return { index, message, logprobs: null, finish_reason: finishReason };
}

function deliveredCharsOf(choices: readonly OpenAiChoice[]): number {
  let chars = 0;
  for (const { message } of choices) {
    chars += message.content?.length ?? 0;
    chars += message.reasoning_content?.length ?? 0;
    for (const call of message.tool_calls ?? []) chars += call.function.arguments.length;
  }
  return chars;
}
