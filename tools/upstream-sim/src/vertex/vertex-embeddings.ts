import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { embeddingVector, maxUnknownModelDimensions, nativeEmbeddingDimensions } from '../endpoints/embedding-vector';
import { planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from '../endpoints/endpoint-answer';
import { geminiDialect, invalidArgument, sendGeminiError } from '../gemini/gemini-error';
import { parseGeminiBody } from '../gemini/handle-gemini-embeddings';
import { stripSimMarkers } from '../message-text';
import { countTokens } from '../tokens';

/** Vector length of a text embedding model the simulator does not know. */
const defaultDimensions = 768;

/** A text embedding model's `predict` request (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api). */
const PredictEmbeddingsRequestSchema = z.object({
  instances: z.array(z.object({ content: z.string(), task_type: z.string().optional(), title: z.string().optional() }).strict()).min(1).max(250),
  parameters: z.object({ outputDimensionality: z.number().int().positive().optional(), autoTruncate: z.boolean().optional() }).strict().optional(),
  x_sim: z.unknown().optional(),
});

/** POST `…/publishers/google/models/{model}:predict` → `{predictions: [{embeddings: {values, statistics: {token_count, truncated}}}]}`. */
export async function handleVertexEmbeddings(res: ServerResponse, model: string, rawBody: string, context: EndpointFaultContext): Promise<void> {
  const request = parseGeminiBody(res, rawBody, PredictEmbeddingsRequestSchema, 'PredictRequest');
  if (!request) return;
  const asked = request.parameters?.outputDimensionality;
  const most = nativeEmbeddingDimensions(model) ?? maxUnknownModelDimensions;
  if (asked !== undefined && asked > most) return sendGeminiError(res, invalidArgument(`outputDimensionality must be at most ${most} for ${model}.`));
  const dimensions = asked ?? nativeEmbeddingDimensions(model) ?? defaultDimensions;
  const texts = request.instances.map((instance) => instance.content);
  const planned = planEndpointCall(request.x_sim, texts.join('\n'), 'instances', context);
  if (planned.kind === 'invalid') return sendGeminiError(res, invalidArgument(`${planned.param}: ${planned.message}`));
  const predictions = texts.map((text) => {
    const plain = stripSimMarkers(text);
    return { embeddings: { values: embeddingVector(plain, dimensions), statistics: { token_count: countTokens(plain), truncated: false } } };
  });
  await sendEndpointAnswer(res, planned.plan, geminiDialect, { body: JSON.stringify({ predictions, metadata: { billableCharacterCount: texts.join('').length } }), work: 1 });
}
