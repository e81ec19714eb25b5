import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { sendJson } from '../http-io';
import { CountTokensRequestSchema, type CountTokensResponse } from './anthropic-api';
import { anthropicError, invalidRequest, sendAnthropicError } from './anthropic-error';
import { checkAnthropicHeaders } from './anthropic-headers';
import { checkAnthropicPrompt, parseAnthropicBody } from './check-anthropic-request';
import type { AnthropicContext } from './handle-messages';
import { promptTokens } from './prompt-segments';

/** Fields of a messages call that count_tokens refuses, as the API does. */
const messagesOnlyFields = ['max_tokens', 'stream'] as const;

/**
 * POST /v1/messages/count_tokens: the prompt's tokens, exactly what `POST /v1/messages` on the
 * same prompt reports as input + cache writes + cache reads. Reads nothing from the cache and
 * writes nothing to it; plays no fault.
 */
export function handleCountTokens(headers: IncomingHttpHeaders, res: ServerResponse, rawBody: string, context: AnthropicContext): void {
  if (!checkAnthropicHeaders(headers, res, context)) return;
  const parsed = parseAnthropicBody(rawBody, CountTokensRequestSchema);
  if (!parsed.ok) return invalidRequest(res, parsed.message);
  const request = parsed.value;
  const extra = messagesOnlyFields.find((field) => field in request);
  if (extra) return invalidRequest(res, `${extra}: Extra inputs are not permitted`);
  if (!context.anthropicModels.includes(request.model)) {
    sendAnthropicError(res, 404, anthropicError('not_found_error', `model: ${request.model}`));
    return;
  }
  const checked = checkAnthropicPrompt(request, undefined);
  if (!checked.ok) return invalidRequest(res, checked.message);
  const body: CountTokensResponse = { input_tokens: promptTokens(checked.segments) };
  sendJson(res, 200, body);
}
