import type { GeminiPart } from '../gemini-api';
import { createGeminiToolCallId } from '../gemini-tool-call-id';

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

type FunctionCallPart = GeminiPart & { functionCall: NonNullable<GeminiPart['functionCall']> };

export const isFunctionCallPart = (part: GeminiPart): part is FunctionCallPart => part.functionCall !== undefined;

/** Text the caller sees: thought summaries and function calls are not. */
export const isAnswerText = (part: GeminiPart): part is GeminiPart & { text: string } =>
  part.text !== undefined && part.thought !== true && part.functionCall === undefined;

/** A thought summary part (sent when thoughts are asked for): reasoning, never the answer. */
export const isThoughtText = (part: GeminiPart): part is GeminiPart & { text: string } =>
  part.text !== undefined && part.thought === true && part.functionCall === undefined;

/**
 * A Gemini functionCall part → an OpenAI tool call. Gemini sends the arguments whole, as an
 * object (`{}` or absent for a function without arguments: always the JSON text "{}", never "").
 * `seed` makes the id stable; the part's thought signature travels inside it.
 */
export function convertGeminiFunctionCall(part: FunctionCallPart, seed: string): OpenAiToolCall {
  return {
    id: createGeminiToolCallId(seed, part.thoughtSignature),
    type: 'function',
    function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
  };
}

/** `chatcmpl-<Gemini responseId>`, one id for every chunk of a stream. */
export const completionIdOf = (responseId: string): string => `chatcmpl-${responseId}`;
