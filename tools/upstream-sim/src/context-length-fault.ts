import type { ErrorResponse } from '@chat-relay/contract';
import type { AnthropicErrorBody } from './anthropic/anthropic-api';
import { anthropicError } from './anthropic/anthropic-error';
import type { GeminiErrorBody } from './gemini/gemini-api';
import { invalidArgument } from './gemini/gemini-error';
import { openAiError } from './openai-error';

/**
 * The 400 each provider answers a prompt longer than the model's context window with, in its own
 * words (what the `context-length` fault plays; the numbers are examples). Each as the provider
 * sends it, quoted from its callers' reports (no provider documents the exact text):
 * - OpenAI Chat Completions: code `context_length_exceeded`, param `messages`
 *   (https://github.com/crewAIInc/crewAI-examples/issues/121, https://github.com/langgenius/dify/issues/17778);
 * - OpenAI Responses: the same code, with the Responses API's sentence;
 * - Anthropic: `invalid_request_error` "prompt is too long: N tokens > M maximum", no code
 *   (https://github.com/anthropics/claude-code/issues/12186);
 * - Gemini: INVALID_ARGUMENT "The input token count (N) exceeds the maximum number of tokens
 *   allowed (M)." (https://github.com/google-gemini/gemini-cli/issues/6678).
 */
export function openAiContextLength(): ErrorResponse {
  return openAiError(
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
    'invalid_request_error',
    'messages',
    'context_length_exceeded',
  );
}

export function responsesContextLength(): ErrorResponse {
  return openAiError('Your input exceeds the context window of this model. Please adjust your input and try again.', 'invalid_request_error', 'input', 'context_length_exceeded');
}

export function anthropicContextLength(): AnthropicErrorBody {
  return anthropicError('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum');
}

export function geminiContextLength(): GeminiErrorBody {
  return invalidArgument('The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).');
}
