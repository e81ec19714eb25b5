import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { countPromptTokens } from '../decide-answer';
import { sendJson } from '../http-io';
import { checkGeminiRequest } from './check-gemini-request';
import { ContentSchema, GenerateContentRequestSchema } from './gemini-api';
import { invalidArgument, sendGeminiError } from './gemini-error';
import { parseGeminiBody } from './handle-gemini-embeddings';
import { geminiToInternalRequest } from './to-internal-request';

/**
 * POST /v1beta/models/{model}:countTokens (https://ai.google.dev/api/tokens#method:-models.counttokens):
 * `contents`, or a `generateContentRequest` whose `model` is required (GenerateContentRequest.model:
 * "Required. The name of the Model to use … Format: models/{model}") — the latter counted when both
 * are sent, as Google documents ("This field is ignored when generateContentRequest is set").
 */
export const CountTokensRequestSchema = z
  .object({
    contents: z.array(ContentSchema).optional(),
    generateContentRequest: GenerateContentRequestSchema.and(z.object({ model: z.string({ required_error: 'Required' }).min(1) })).optional(),
  })
  .passthrough();

/** `{totalTokens}`: the same count generateContent reports as `promptTokenCount` for the same prompt. */
export function handleGeminiCountTokens(res: ServerResponse, model: string, rawBody: string): void {
  const request = parseGeminiBody(res, rawBody, CountTokensRequestSchema, 'CountTokensRequest');
  if (!request) return;
  const prompt = request.generateContentRequest ?? (request.contents && request.contents.length > 0 ? { contents: request.contents } : undefined);
  if (!prompt) return sendGeminiError(res, invalidArgument('* CountTokensRequest.contents: contents is not specified'));
  const problem = checkGeminiRequest(prompt);
  if (problem) return sendGeminiError(res, invalidArgument(problem));
  sendJson(res, 200, { totalTokens: countPromptTokens(geminiToInternalRequest(prompt, model)) });
}
