import { EmbeddingRequestSchema, GeminiEmbeddingTaskTypeSchema } from '@chat-relay/contract';
import { z } from 'zod';
import { invalidRequest } from '../../errors/relay-error';
import type { EndpointAdapter } from '../../hub/endpoint-adapter';
import { trimBaseUrl } from '../../hub/native-request-body';
import { embeddingList } from '../../openai-endpoints/embedding-list';
import { malformedAnswer, parseEndpointRequest, readJsonObject, textsOf, uncountedUsage, type JsonRequest } from '../../openai-endpoints/endpoint-common';
import { mapGeminiErrorResponse } from './gemini-error';
import { geminiAuthHeaders } from '../../providers/provider-auth';

/**
 * Read by the conversion; `user` is OpenAI bookkeeping, accepted and not sent. `task_type` is
 * Gemini's own `taskType` (what the relay's Gemini route sends on for `embedContent`).
 */
const ACCEPTED = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user', 'task_type']);

/** `task_type` as Gemini's `taskType`, or a 400 naming it. */
function taskTypeOf(request: JsonRequest): { taskType?: string } {
  const taskType = request['task_type'];
  if (taskType === undefined || taskType === null) return {};
  const parsed = GeminiEmbeddingTaskTypeSchema.safeParse(taskType);
  if (!parsed.success) throw invalidRequest(`'task_type' must be one of ${GeminiEmbeddingTaskTypeSchema.options.join(', ')}.`, 'task_type', 'invalid_value');
  return { taskType: parsed.data };
}

const BatchEmbedAnswerSchema = z
  .object({ embeddings: z.array(z.object({ values: z.array(z.number()) }).passthrough()) })
  .passthrough();

/** The texts to embed, or a 400 naming `input`: Gemini embeds text, not another model's token ids. */
function inputTexts(input: unknown): string[] {
  const texts = textsOf(input);
  const count = Array.isArray(input) ? input.length : 1;
  if (texts.length === count) return texts;
  throw invalidRequest(
    "'input' cannot be sent to a Gemini channel as token ids: Gemini embeds text, so send the text itself.",
    'input',
    'unsupported_parameter',
  );
}

function rejectInexpressible(request: JsonRequest): void {
  for (const [field, value] of Object.entries(request)) {
    if (value === null || value === undefined || ACCEPTED.has(field)) continue;
    throw invalidRequest(`'${field}' cannot be sent to a Gemini channel: it has no Gemini counterpart.`, field, 'unsupported_parameter');
  }
}

/**
 * `/embeddings` on a Gemini channel: `POST {base_url}/models/{model}:batchEmbedContents`, one
 * request per input (`dimensions` → `outputDimensionality`, `task_type` → `taskType`), the key in `x-goog-api-key`. The
 * vectors come back in the inputs' order as OpenAI's list, base64-encoded when asked. Gemini
 * counts no tokens here: the relay counts the inputs and rewrites the answer's usage.
 */
export const geminiEmbeddingsAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'embeddings',
  buildRequest: ({ channel, key, request, upstreamModel }) => {
    const embedding = parseEndpointRequest(EmbeddingRequestSchema, request);
    const texts = inputTexts(embedding.input);
    rejectInexpressible(request);
    const model = upstreamModel.replace(/^models\//, '');
    const dimensions = embedding.dimensions !== undefined ? { outputDimensionality: embedding.dimensions } : {};
    const taskType = taskTypeOf(request);
    return {
      url: `${trimBaseUrl(channel.baseUrl)}/models/${encodeURIComponent(model)}:batchEmbedContents`,
      headers: { ...geminiAuthHeaders(key), 'content-type': 'application/json' },
      body: JSON.stringify({
        requests: texts.map((text) => ({ model: `models/${model}`, content: { parts: [{ text }] }, ...taskType, ...dimensions })),
      }),
    };
  },
  convertResponse: (text, { request, publicModel }) => {
    const read = readJsonObject(text, 'embeddings answer');
    if (!read.ok) return read;
    const answer = BatchEmbedAnswerSchema.safeParse(read.json);
    const texts = textsOf(request['input']);
    if (!answer.success || answer.data.embeddings.length !== texts.length) return { ok: false, error: malformedAnswer('embeddings answer') };
    const encodingFormat = request['encoding_format'] === 'base64' ? 'base64' : 'float';
    const vectors = answer.data.embeddings.map(({ values }) => values);
    return {
      ok: true,
      kind: 'json',
      body: embeddingList({ vectors, publicModel, encodingFormat, promptTokens: 0 }),
      usage: uncountedUsage(texts.join('\n')),
    };
  },
  mapErrorResponse: mapGeminiErrorResponse,
};
