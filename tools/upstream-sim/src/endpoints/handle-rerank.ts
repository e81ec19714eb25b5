import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { RerankRequestSchema } from '@chat-relay/contract';
import { sendError } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { openAiError } from '../openai-error';
import { parseOpenAiBody } from '../parse-openai-body';
import { countTokens } from '../tokens';
import { openAiDialect, planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from './endpoint-answer';

/** Documents per search unit, as Cohere bills them. */
const documentsPerSearchUnit = 100;

function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * How relevant `document` is to `query`: the Jaccard index of their lower-cased word sets
 * (words in both / words in either), 0 when neither has a word.
 */
export function rerankScore(query: string, document: string): number {
  const queryWords = wordSet(query);
  const documentWords = wordSet(document);
  const shared = [...queryWords].filter((word) => documentWords.has(word)).length;
  const either = queryWords.size + documentWords.size - shared;
  return either === 0 ? 0 : shared / either;
}

/**
 * POST /v1/rerank in the Cohere/Jina shape: the documents by `rerankScore`, best first (ties
 * in the order sent), cut at `top_n`, each with its `document` when `return_documents`.
 */
export async function handleRerank(res: ServerResponse, rawBody: string, context: EndpointFaultContext): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, RerankRequestSchema);
  if (!request) return;
  const planned = planEndpointCall(request['x_sim'], request.query, 'query', context);
  if (planned.kind === 'invalid') {
    sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
    return;
  }
  const query = stripSimMarkers(request.query);
  const documents = request.documents.map((document) => (typeof document === 'string' ? document : document.text));
  const ranked = documents
    .map((text, index) => ({ index, relevance_score: rerankScore(query, text), text }))
    .sort((left, right) => right.relevance_score - left.relevance_score || left.index - right.index)
    .slice(0, request.top_n ?? documents.length);
  const queryTokens = countTokens(query);
  const totalTokens = documents.reduce((sum, text) => sum + queryTokens + countTokens(text), 0);
  const digest = createHash('sha256').update(JSON.stringify([request.model, query, documents])).digest('hex');
  const body = {
    id: `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`,
    model: request.model,
    results: ranked.map(({ index, relevance_score, text }) => ({
      index,
      relevance_score,
      ...(request.return_documents === true ? { document: { text } } : {}),
    })),
    meta: {
      api_version: { version: '2' },
      billed_units: { search_units: Math.ceil(documents.length / documentsPerSearchUnit) },
    },
    usage: { total_tokens: totalTokens },
  };
  await sendEndpointAnswer(res, planned.plan, openAiDialect, { body: JSON.stringify(body), work: 1 });
}
