import type { ServerResponse } from 'node:http';
import { EmbeddingRequestSchema, type EmbeddingRequest } from '@chat-relay/contract';
import { sendError } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { openAiError } from '../openai-error';
import { readOpenAiJson, validateOpenAiValue } from '../parse-openai-body';
import { countTokens } from '../tokens';
import { openAiDialect, planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from './endpoint-answer';
import { embeddingToBase64, embeddingVector, maxUnknownModelDimensions, nativeEmbeddingDimensions } from './embedding-vector';

/** OpenAI's words for an input it cannot embed (an empty string, an empty list, a list holding one). */
export const invalidInputMessage = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

/** One input as text (token ids as their numbers, space-separated) and its token count. */
interface EmbeddingInput {
  text: string;
  tokens: number;
}

function inputsOf(input: EmbeddingRequest['input']): EmbeddingInput[] {
  if (typeof input === 'string') return [{ text: stripSimMarkers(input), tokens: countTokens(stripSimMarkers(input)) }];
  if (input.every((item): item is number => typeof item === 'number')) return [{ text: input.join(' '), tokens: input.length }];
  return input.map((item) =>
    typeof item === 'string'
      ? { text: stripSimMarkers(item), tokens: countTokens(stripSimMarkers(item)) }
      : { text: item.join(' '), tokens: item.length },
  );
}

function markerText(input: EmbeddingRequest['input']): string {
  if (typeof input === 'string') return input;
  return input.filter((item): item is string => typeof item === 'string').join('\n');
}

/** The request, or undefined once OpenAI's 400 is sent (with its own wording for `input` and `encoding_format`). */
function parseEmbeddingRequest(res: ServerResponse, rawBody: string): EmbeddingRequest | undefined {
  const body = readOpenAiJson(res, rawBody);
  if (!body) return undefined;
  const parsed = EmbeddingRequestSchema.safeParse(body.json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  if (field === 'encoding_format') {
    const value: unknown = (body.json as Record<string, unknown>)['encoding_format'];
    const message = `Invalid value for 'encoding_format' = ${String(value)}. Supported values: ['float', 'base64'].`;
    sendError(res, 400, openAiError(message, 'invalid_request_error'));
    return undefined;
  }
  const missing = issue?.code === 'invalid_type' && issue.received === 'undefined';
  if (field === 'input' && !missing) {
    sendError(res, 400, openAiError(invalidInputMessage, 'invalid_request_error'));
    return undefined;
  }
  return validateOpenAiValue(res, body.json, EmbeddingRequestSchema);
}

/** The vector length asked for, or a message saying why it cannot be had. */
function dimensionsOf(request: EmbeddingRequest): number | { param: string; message: string } {
  const native = nativeEmbeddingDimensions(request.model);
  if (request.dimensions === undefined) return native ?? 1536;
  if (request.model === 'text-embedding-ada-002') {
    return { param: 'dimensions', message: 'This model does not support specifying dimensions.' };
  }
  const most = native ?? maxUnknownModelDimensions;
  if (request.dimensions > most) {
    return { param: 'dimensions', message: `Invalid 'dimensions': ${request.model} makes vectors of at most ${most} dimensions.` };
  }
  return request.dimensions;
}

/**
 * POST /v1/embeddings: one unit vector per input (`embeddingVector`), 1536 numbers by default
 * (3072 for text-embedding-3-large, `dimensions` honoured), as floats or base64 float32.
 */
export async function handleEmbeddings(res: ServerResponse, rawBody: string, context: EndpointFaultContext): Promise<void> {
  const request = parseEmbeddingRequest(res, rawBody);
  if (!request) return;
  const dimensions = dimensionsOf(request);
  if (typeof dimensions !== 'number') {
    sendError(res, 400, openAiError(dimensions.message, 'invalid_request_error', dimensions.param));
    return;
  }
  const planned = planEndpointCall(request['x_sim'], markerText(request.input), 'input', context);
  if (planned.kind === 'invalid') {
    sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
    return;
  }
  const inputs = inputsOf(request.input);
  const base64 = request.encoding_format === 'base64';
  const promptTokens = inputs.reduce((sum, input) => sum + input.tokens, 0);
  const body = {
    object: 'list',
    data: inputs.map((input, index) => {
      const values = embeddingVector(input.text, dimensions);
      return { object: 'embedding', index, embedding: base64 ? embeddingToBase64(values) : values };
    }),
    model: request.model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  // Indented by two spaces, a number a line, as api.openai.com writes it (the raw curl output quoted
  // in openai/openai-openapi#112): a gateway that reads it must not expect `"model":"…"` unspaced.
  await sendEndpointAnswer(res, planned.plan, openAiDialect, { body: JSON.stringify(body, null, 2), work: 1 });
}
