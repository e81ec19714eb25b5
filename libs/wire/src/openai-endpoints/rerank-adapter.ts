import { RerankRequestSchema, type RerankRequest } from '@chat-relay/contract';
import { z } from 'zod';
import type { EndpointAdapter, EndpointAnswer, EndpointUsage } from '../hub/endpoint-adapter';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import { mapOpenAiErrorResponse } from '../openai-chat/upstream/openai-error';
import { countOf, malformedAnswer, NO_USAGE, openAiJsonPassthrough, parseEndpointRequest, type JsonRequest } from './endpoint-common';

/** Documents one search unit covers (Cohere's billing: one query and up to 100 documents). */
const DOCUMENTS_PER_SEARCH_UNIT = 100;

/** Cohere, Jina, vLLM: `{results: [{index, relevance_score, document?}]}` (some servers say `score`). */
const RankedSchema = z
  .object({ index: z.number().int().nonnegative(), relevance_score: z.number().optional(), score: z.number().optional(), document: z.unknown() })
  .passthrough();
/** Hugging Face TEI: a bare array of `{index, score, text?}`. */
const TeiRankedSchema = z.object({ index: z.number().int().nonnegative(), score: z.number(), text: z.string().optional() }).passthrough();

interface RerankResult {
  index: number;
  relevance_score: number;
  document?: JsonObject;
}

/** A document as answers carry it: `{text, …}`. A string is wrapped; an object without text (Together's `{}`) is none. */
function documentOf(value: unknown): JsonObject | undefined {
  if (typeof value === 'string') return { text: value };
  return isJsonObject(value) && typeof value['text'] === 'string' ? value : undefined;
}

function resultsOf(json: unknown): { results: RerankResult[]; rest: JsonObject } | undefined {
  if (Array.isArray(json)) {
    const items = z.array(TeiRankedSchema).safeParse(json);
    if (!items.success) return undefined;
    const results = items.data.map(({ index, score, text }) => ({ index, relevance_score: score, document: documentOf(text) }));
    return { results, rest: {} };
  }
  if (!isJsonObject(json)) return undefined;
  const items = z.array(RankedSchema).safeParse(json['results']);
  if (!items.success) return undefined;
  const results: RerankResult[] = [];
  for (const { index, relevance_score: relevance, score, document } of items.data) {
    const relevanceScore = relevance ?? score;
    if (relevanceScore === undefined) return undefined;
    results.push({ index, relevance_score: relevanceScore, document: documentOf(document) });
  }
  return { results, rest: json };
}

/** Search units billed, when the upstream says (Cohere's `meta.billed_units`); else one per 100 documents. */
function rerankUsage(rest: JsonObject, documents: number): EndpointUsage {
  const billed = isJsonObject(rest['meta']) && isJsonObject(rest['meta']['billed_units']) ? rest['meta']['billed_units'] : {};
  const usage = isJsonObject(rest['usage']) ? rest['usage'] : {};
  const units = countOf(billed['search_units']) ?? countOf(usage['search_units']) ?? Math.ceil(documents / DOCUMENTS_PER_SEARCH_UNIT);
  const promptTokens = countOf(usage['total_tokens']) ?? countOf(billed['input_tokens']) ?? 0;
  return { ...NO_USAGE, units, promptTokens };
}

/**
 * An upstream's rerank answer in the shape the relay answers: `{…, model, results: [{index,
 * relevance_score, document?}]}`, best first. A document the upstream left out although the
 * caller asked for them (`return_documents`) is filled in from the request.
 */
export function normaliseRerankAnswer(text: string, request: RerankRequest, publicModel: string): EndpointAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: malformedAnswer('rerank answer') };
  }
  const read = resultsOf(json);
  if (!read || read.results.some(({ index }) => index >= request.documents.length)) {
    return { ok: false, error: malformedAnswer('rerank answer') };
  }
  const results = read.results
    .map(({ index, relevance_score, document }) => {
      const filled = document ?? (request.return_documents ? documentOf(request.documents[index]) : undefined);
      return { index, relevance_score, ...(filled ? { document: filled } : {}) };
    })
    .sort((first, second) => second.relevance_score - first.relevance_score);
  return {
    ok: true,
    kind: 'json',
    body: { ...read.rest, model: publicModel, results },
    usage: rerankUsage(read.rest, request.documents.length),
  };
}

/**
 * `/rerank` on an OpenAI-compatible server that has it (vLLM, TEI, Jina, Cohere-compatible):
 * passed through, the answer normalised (see normaliseRerankAnswer).
 */
export const openAiRerankAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'rerank',
  buildRequest: (args) => openAiJsonPassthrough('rerank', args),
  convertResponse: (text, { request, publicModel }) => normaliseRerankAnswer(text, parseEndpointRequest(RerankRequestSchema, request), publicModel),
  mapErrorResponse: mapOpenAiErrorResponse,
};
