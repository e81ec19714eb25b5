import { EmbeddingRequestSchema, GeminiEmbeddingTaskTypeSchema } from '@chat-relay/contract';
import { z } from 'zod';
import { invalidRequest } from '../errors/relay-error';
import type { EndpointAdapter } from '../hub/endpoint-adapter';
import { embeddingList } from '../openai-endpoints/embedding-list';
import { malformedAnswer, parseEndpointRequest, readJsonObject, textsOf, type JsonRequest } from '../openai-endpoints/endpoint-common';
import { vertexAuthHeaders } from '../providers/provider-auth';
import { mapVertexErrorResponse } from './vertex-error';
import { vertexModelUrl } from './vertex-url';

/** Read by the conversion; `user` is OpenAI bookkeeping, accepted and not sent; `task_type` is Vertex's own. */
const ACCEPTED = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user', 'task_type']);

/**
 * The `predict` answer of a text embedding model: one prediction per instance, each with its
 * vector and the tokens it counted
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api).
 */
const PredictAnswerSchema = z
  .object({
    predictions: z.array(
      z.object({
        embeddings: z.object({ values: z.array(z.number()), statistics: z.object({ token_count: z.number().nonnegative() }).passthrough().optional() }).passthrough(),
      }),
    ),
  })
  .passthrough();

function inputTexts(input: unknown): string[] {
  const texts = textsOf(input);
  if (texts.length === (Array.isArray(input) ? input.length : 1)) return texts;
  throw invalidRequest("'input' cannot be sent to a Vertex channel as token ids: Vertex embeds text, so send the text itself.", 'input', 'unsupported_parameter');
}

function taskTypeOf(request: JsonRequest): { task_type?: string } {
  const taskType = request['task_type'];
  if (taskType === undefined || taskType === null) return {};
  const parsed = GeminiEmbeddingTaskTypeSchema.safeParse(taskType);
  if (!parsed.success) throw invalidRequest(`'task_type' must be one of ${GeminiEmbeddingTaskTypeSchema.options.join(', ')}.`, 'task_type', 'invalid_value');
  return { task_type: parsed.data };
}

/**
 * `/embeddings` on a Vertex channel: `POST …/publishers/google/models/{model}:predict` with one
 * instance per input (`{content, task_type?}`), `dimensions` → `parameters.outputDimensionality`.
 * The vectors come back in the inputs' order as OpenAI's list; the tokens are Vertex's own count
 * (`statistics.token_count`, summed).
 */
export const vertexEmbeddingsAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'embeddings',
  buildRequest: ({ channel, key, request, upstreamModel }) => {
    const embedding = parseEndpointRequest(EmbeddingRequestSchema, request);
    const texts = inputTexts(embedding.input);
    for (const [field, value] of Object.entries(request)) {
      if (value !== null && value !== undefined && !ACCEPTED.has(field)) {
        throw invalidRequest(`'${field}' cannot be sent to a Vertex channel: it has no Vertex counterpart.`, field, 'unsupported_parameter');
      }
    }
    const taskType = taskTypeOf(request);
    const parameters = embedding.dimensions !== undefined ? { parameters: { outputDimensionality: embedding.dimensions } } : {};
    return {
      url: vertexModelUrl({ channel, key, publisher: 'google', model: upstreamModel, method: 'predict' }),
      headers: { ...vertexAuthHeaders(key), 'content-type': 'application/json' },
      body: JSON.stringify({ instances: texts.map((content) => ({ content, ...taskType })), ...parameters }),
    };
  },
  convertResponse: (text, { request, publicModel }) => {
    const read = readJsonObject(text, 'embeddings answer');
    if (!read.ok) return read;
    const answer = PredictAnswerSchema.safeParse(read.json);
    if (!answer.success || answer.data.predictions.length !== textsOf(request['input']).length) return { ok: false, error: malformedAnswer('embeddings answer') };
    const promptTokens = answer.data.predictions.reduce((sum, { embeddings }) => sum + (embeddings.statistics?.token_count ?? 0), 0);
    const vectors = answer.data.predictions.map(({ embeddings }) => embeddings.values);
    const encodingFormat = request['encoding_format'] === 'base64' ? 'base64' : 'float';
    return {
      ok: true,
      kind: 'json',
      body: embeddingList({ vectors, publicModel, encodingFormat, promptTokens }),
      usage: { promptTokens, completionTokens: 0, units: 0 },
    };
  },
  mapErrorResponse: mapVertexErrorResponse,
};
