import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { sendJson } from '../http-io';
import { promptTokens } from '../anthropic/prompt-segments';
import { sendValidationError } from './bedrock-error';
import { foundationModelOf } from './check-invoke-body';
import { readInvokeBody } from './handle-invoke-model';

/** CountTokens' input: the InvokeModel body, base64 (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html). */
const CountTokensSchema = z.object({ input: z.object({ invokeModel: z.object({ body: z.string() }).strict() }).strict() }).strict();

/**
 * `POST /model/{id}/count-tokens`: `{"inputTokens": N}`, the prompt's tokens — what InvokeModel on
 * the same body reports as input, cache writes and reads together. The body inside is checked as
 * an InvokeModel body (Bedrock validates it as one: `max_tokens` is required), for a foundation
 * model (an inference profile's id is refused); nothing is cached, no fault played. Converse
 * input is not the simulator's (another handler's, when there is one).
 */
export function handleCountTokens(res: ServerResponse, modelId: string, rawBody: string): void {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return sendValidationError(res, 'Malformed input request, please reformat your input and try again.');
  }
  const parsed = CountTokensSchema.safeParse(json);
  if (!parsed.success) return sendValidationError(res, '1 validation error detected: Value at \'input\' failed to satisfy constraint: Member must have an invokeModel body');
  if (foundationModelOf(modelId) !== modelId) return sendValidationError(res, 'The provided model identifier is invalid.');
  const read = readInvokeBody(modelId, Buffer.from(parsed.data.input.invokeModel.body, 'base64').toString('utf8'), false);
  if (!read.ok) return sendValidationError(res, read.message);
  sendJson(res, 200, { inputTokens: promptTokens(read.checked.segments) });
}
