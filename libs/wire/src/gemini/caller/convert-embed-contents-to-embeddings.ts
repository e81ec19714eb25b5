import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import { GEMINI_EMBED_TO_EMBEDDINGS } from '../gemini-bridge-losses';
import type { EmbeddingList, GeminiContentEmbedding, GeminiEmbedContentRequest } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';

/** OpenAI's embeddings request, as the relay's embeddings pipeline (`/v1/embeddings`) takes it. */
export interface BridgedEmbeddingRequest {
  model: string;
  input: string[];
  encoding_format: 'float';
  dimensions?: number;
  /** Gemini's `taskType`: only a channel speaking Gemini's API receives it (see embeddingsAdapterForGemini). */
  task_type?: string;
}

export interface ConvertedEmbedContents {
  request: BridgedEmbeddingRequest;
  /** What the embeddings pipeline cannot carry (titles), to be logged. */
  warnings: Adjustment[];
}

export interface ConvertEmbedContentsArgs {
  /** The model in the URL, the name the caller uses. */
  model: string;
  requests: readonly GeminiEmbedContentRequest[];
  /** `batchEmbedContents`: each request names the URL's model (`models/{model}`), as Google requires. */
  batch: boolean;
}

/** A content's text: its text parts joined by new lines (Google embeds a content's parts as one input). */
function textOf(request: GeminiEmbedContentRequest, at: string): string {
  const parts = request.content.parts ?? [];
  const texts = parts.map((part, index) => {
    if (typeof part.text !== 'string') {
      throw invalidRequest(`${at}.content.parts[${index}]: only text can be embedded through the relay; send the part's text.`, `${at}.content.parts[${index}]`, 'unsupported_parameter');
    }
    return part.text;
  });
  if (texts.length === 0) throw invalidRequest(`${at}.content.parts must not be empty.`, `${at}.content.parts`, 'invalid_value');
  return texts.join('\n');
}

/**
 * Gemini's `embedContent` / `batchEmbedContents` → one embeddings request of the relay's pipeline,
 * each content one input, in order. `outputDimensionality` → `dimensions` and `taskType` →
 * `task_type` (one value each for the whole call: requests asking different ones are refused).
 * `title` has no counterpart in that request: left out, named in `warnings`.
 */
export function convertEmbedContentsToEmbeddings({ model, requests, batch }: ConvertEmbedContentsArgs): ConvertedEmbedContents {
  const warnings: Adjustment[] = [];
  const dimensions = new Set<number>();
  const taskTypes = new Set<string | undefined>();
  const input = requests.map((request, index) => {
    const at = batch ? `requests[${index}]` : 'request';
    if (batch && request.model !== `models/${model}`) {
      const named = request.model === undefined ? 'names no model' : `names ${request.model}`;
      throw invalidRequest(`${at}.model ${named}: each request must name the URL's model, models/${model}.`, `${at}.model`, 'invalid_value');
    }
    if (request.outputDimensionality !== undefined) dimensions.add(request.outputDimensionality);
    taskTypes.add(request.taskType);
    if (request.title !== undefined) warnings.push(lossOf(GEMINI_EMBED_TO_EMBEDDINGS.rules.title, { field: `${at}.title` }));
    return textOf(request, at);
  });
  if (dimensions.size > 1) {
    throw invalidRequest('outputDimensionality must be the same for every request of one batch through the relay.', 'requests', 'invalid_value');
  }
  if (taskTypes.size > 1) throw invalidRequest('taskType must be the same for every request of one batch through the relay.', 'requests', 'invalid_value');
  const [asked] = [...dimensions];
  const [taskType] = [...taskTypes];
  return {
    request: { model, input, encoding_format: 'float', ...(asked !== undefined && { dimensions: asked }), ...(taskType !== undefined && { task_type: taskType }) },
    warnings,
  };
}

/** One vector of OpenAI's list: floats, or base64 of little-endian float32s. */
function valuesOf(embedding: number[] | string): number[] {
  if (Array.isArray(embedding)) return embedding;
  const bytes = Buffer.from(embedding, 'base64');
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
  return Array.from(floats);
}

/** OpenAI's embedding list → Google's `ContentEmbedding`s, in the inputs' order. */
export function convertEmbeddingsToGemini(list: Pick<EmbeddingList, 'data'>): GeminiContentEmbedding[] {
  return [...list.data].sort((a, b) => a.index - b.index).map(({ embedding }) => ({ values: valuesOf(embedding) }));
}
