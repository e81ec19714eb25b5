import type { ChatCompletion, GeminiCandidateResponse, GeminiGenerateContentResponse, GeminiPartParam } from '@chat-relay/contract';
import { reasoningTextOf } from '../../anthropic-messages/reasoning-text-of';
import { convertChatUsageToGemini, functionArgsOf, geminiResponseIdOf, mapFinishReasonToGemini } from './convert-chat-to-gemini-parts';

export interface ConvertChatToGenerateContentArgs {
  /** The hub's answer (an upstream adapter's `convertResponse` body). */
  completion: ChatCompletion;
  /** The model name the caller put in the path, which `modelVersion` carries. */
  publicModel: string;
  /** The caller asked for thoughts: reasoning text becomes a leading thought part. */
  includeThoughts: boolean;
}

type Choice = ChatCompletion['choices'][number];

function candidateOf(choice: Choice, includeThoughts: boolean): GeminiCandidateResponse {
  const { message } = choice;
  const parts: GeminiPartParam[] = [];
  const reasoning = includeThoughts ? reasoningTextOf(message) : '';
  if (reasoning !== '') parts.push({ text: reasoning, thought: true });
  if (message.content) parts.push({ text: message.content });
  if (message.refusal) parts.push({ text: message.refusal });
  for (const call of message.tool_calls ?? []) {
    // Only function calls can come back: the bridge declares function tools only.
    if (call.type !== 'function') continue;
    parts.push({ functionCall: { ...(call.id ? { id: call.id } : {}), name: call.function.name, args: functionArgsOf(call.function.arguments) } });
  }
  return { content: { role: 'model', parts }, finishReason: mapFinishReasonToGemini(choice.finish_reason), index: choice.index };
}

/**
 * A hub `chat.completion` → a generateContent answer: one candidate per choice, its parts a
 * thought part (reasoning text, only when thoughts were asked for), the text, the refusal text
 * (each only when non-empty), then one functionCall part per tool call, with the call's id so a
 * functionResponse can name it; finishReason see mapFinishReasonToGemini, usageMetadata see
 * convertChatUsageToGemini, modelVersion the caller's model, responseId the completion's id.
 */
export function convertChatToGenerateContent({ completion, publicModel, includeThoughts }: ConvertChatToGenerateContentArgs): GeminiGenerateContentResponse {
  return {
    candidates: completion.choices.map((choice) => candidateOf(choice, includeThoughts)),
    usageMetadata: convertChatUsageToGemini(completion.usage),
    modelVersion: publicModel,
    responseId: geminiResponseIdOf(completion.id),
  };
}
