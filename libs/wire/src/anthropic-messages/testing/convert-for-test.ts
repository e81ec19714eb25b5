/** Test-only: run the request converter the way the relay does, checking what it would send. */
import { ChatCompletionRequestSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { RelayError } from '../../errors/relay-error';
import { AnthropicRequestSchema } from '../anthropic-api';
import { convertToAnthropicRequest, type ConvertedAnthropicRequest } from '../upstream/convert-to-anthropic-request';
import type { ThinkingFacts } from '../upstream/convert-reasoning-effort-to-thinking';

/**
 * Converts an OpenAI body (validated by the contract first, as the route does) and fails the
 * test if the result is not a request Anthropic accepts: no empty text block, valid tool ids
 * and names, strictly alternating roles.
 */
export function convertForTest(body: Record<string, unknown>, upstreamModel = 'claude-haiku-4-5', model?: ThinkingFacts): ConvertedAnthropicRequest {
  const request: ChatCompletionRequest = ChatCompletionRequestSchema.parse({ model: 'public-name', ...body });
  const converted = convertToAnthropicRequest({ request, upstreamModel, model });
  const issues = AnthropicRequestSchema.safeParse(converted.request).error?.issues ?? [];
  if (issues.length > 0) throw new Error(`invalid Anthropic request: ${JSON.stringify(issues)}`);
  const roles = converted.request.messages.map((message) => message.role);
  if (roles.some((role, index) => role === roles[index - 1])) throw new Error(`roles do not alternate: ${roles.join(', ')}`);
  return converted;
}

/** The 400 the converter throws for `body`. */
export function conversionErrorFor(body: Record<string, unknown>, upstreamModel = 'claude-haiku-4-5'): RelayError {
  try {
    convertForTest(body, upstreamModel);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected the conversion to fail with a RelayError');
}

export const userMessage = (content: unknown) => ({ role: 'user', content });
