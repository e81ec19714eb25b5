import {
  geminiContract,
  GeminiCountTokensResponseSchema,
  parseGeminiTarget,
  type ChatCompletionRequest,
  type EmbeddingList,
  type GeminiCountTokensRequest,
  type GeminiEmbedContentRequest,
  type GeminiGenerateContentRequest,
  type GeminiGenerateContentResponse,
} from '@chat-relay/contract';
import {
  convertEmbedContentsToEmbeddings,
  convertEmbeddingsToGemini,
  convertGenerateContentToChat,
  dropRepeatedFunctionResponses,
  inspectGenerateContentRequest,
  invalidRequest,
  modelNotFound,
} from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import type { Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { upstreamNameOf } from '../catalogue/describe-models';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import { listModels } from '../channels/list-models';
import { applyAssistantToGemini } from '../dialects/gemini/apply-assistant-to-gemini';
import { geminiConversation } from '../dialects/gemini/gemini-conversation';
import { geminiDialect, unknownGeminiMethod } from '../dialects/gemini/gemini-dialect';
import { embeddingsAdapterForGemini } from '../dialects/gemini/gemini-embeddings-adapter';
import { geminiModelPage, toGeminiModel } from '../dialects/gemini/gemini-model-list';
import { countTokens } from '../pipeline/count-tokens';
import { runEndpoint } from '../pipeline/run-endpoint';
import { admitRequest, callerAccountId, runPipeline, traceOf, watchCaller, type PipelineDeps } from '../pipeline/run-pipeline';
import { isModelAllowed } from '../policy/model-allow-list';
import { relayAnswer } from './relay-answer';

/** The catalogue describes the models listed in Google's shape (limits, names, thinking). */
export type GeminiRouteDeps = PipelineDeps & { catalogue: ModelCatalogueService };

/**
 * Hub fields a Gemini request sends as hints: a thinking budget or level. A channel whose
 * converter cannot express one (an effort it has no mapping for) refuses it by name, and it is then
 * left out for that channel (named in `x-relay-adjusted`) rather than failing a request Gemini
 * itself would have served. The rest of a bridged Gemini request is covered the same way
 * without being listed here (issue 28): what the upstream model does not take is left out up
 * front from the catalogue (OpenAI's models take no topK, gpt-4o no thinking, Claude 4.5 not
 * topP with temperature), and a parameter the upstream itself refuses by name is left out and
 * the request sent once more. topK is no hint any more: Anthropic and Gemini take it.
 */
const GEMINI_HINTS: readonly (keyof ChatCompletionRequest)[] = ['reasoning_effort'];

/** The model of a `{model}:{method}` path segment its route's contract already checked. */
function modelOf(target: string): string {
  const parsed = parseGeminiTarget(target);
  if (!parsed) throw unknownGeminiMethod(target);
  return parsed.model;
}

/** What a count is of: the whole generateContentRequest when sent (Google counts it), else the contents. */
const countedPrompt = (body: GeminiCountTokensRequest): GeminiGenerateContentRequest => body.generateContentRequest ?? { contents: body.contents ?? [] };

/**
 * The Gemini API (`/v1beta`, for `@google/genai`, Google's other SDKs and Gemini CLI) on the one
 * pipeline. `generateContent` and `streamGenerateContent`: to `gemini` channels the request passes
 * through as sent (the model in the URL mapped), to the others it is bridged through the hub; a
 * stream is server-sent events with `?alt=sse` (what the SDKs send), else a JSON array, as Google
 * streams it. `countTokens`: a gemini channel's own count, else the relay's. `embedContent` and
 * `batchEmbedContents`: the embeddings pipeline, on any channel that embeds. The model list: the
 * models this key may use through these routes.
 */
export function geminiRouter(deps: GeminiRouteDeps) {
  const s = initServer();

  /** The models this key may use through the Gemini routes, in Google's shape (as /v1/models decides which). */
  const listedModels = async (res: Response) => {
    const caller = res.locals.caller;
    const allowList = caller?.kind === 'token' ? caller.token.models : null;
    const channels = await deps.registry.all();
    const assistants = await deps.assistants.listUsableBy(callerAccountId(caller));
    return listModels(channels, assistants)
      .filter((model) => isModelAllowed(allowList, model.id))
      .flatMap((model) => toGeminiModel(model, deps.catalogue.facts(upstreamNameOf(channels, model.id))) ?? []);
  };

  /** The embeddings pipeline (the one /v1/embeddings runs), one input per content, answered as Google's vectors. */
  const embed = async (req: Request, res: Response, model: string, requests: readonly GeminiEmbedContentRequest[], batch: boolean) => {
    const converted = convertEmbedContentsToEmbeddings({ model, requests, batch });
    if (converted.warnings.length > 0) deps.logger.warn({ requestId: res.locals.requestId, warnings: converted.warnings }, 'request translated with warnings');
    const result = await runEndpoint<Readonly<Record<string, unknown>>>(deps, req, res, {
      endpoint: 'embeddings',
      route: batch ? '/v1beta/models/{model}:batchEmbedContents' : '/v1beta/models/{model}:embedContent',
      model,
      request: { ...converted.request },
      stream: false,
      adapterFor: embeddingsAdapterForGemini,
      bound: () => ({ promptTokens: res.locals.rawBody?.length ?? Buffer.byteLength(JSON.stringify(requests)), completionTokens: 0, units: 0 }),
      lower: 'send fewer or shorter contents',
    });
    if (result.kind !== 'json') throw new Error('the embeddings pipeline answered other than JSON');
    const trace = traceOf(res);
    trace.ttfbMs = performance.now() - trace.startedAt;
    return convertEmbeddingsToGemini(result.body as EmbeddingList);
  };

  return s.router(geminiContract, {
    generateContent: async ({ params, query, body, req, res }) => {
      const target = parseGeminiTarget(params.target);
      if (!target) throw unknownGeminiMethod(params.target);
      const stream = target.method === 'streamGenerateContent';
      const alt = query.alt ?? 'json';
      if (alt !== 'json' && alt !== 'sse') {
        throw invalidRequest(`alt=${alt} is not served: answers come as JSON (alt=json, the default) or server-sent events (alt=sse).`, 'alt', 'unsupported_value');
      }
      // Gemini CLI's resumed sessions repeat tool responses, which Gemini itself would refuse: left out first.
      const repaired = dropRepeatedFunctionResponses(body);
      const request = repaired.body;
      const converted = convertGenerateContentToChat({ body: request, model: target.model, stream });
      const result = await runPipeline(deps, req, res, {
        request: converted.request,
        dialect: geminiDialect({ includeThoughts: converted.includeThoughts, sse: alt === 'sse' }),
        native: {
          dialect: 'generate_content',
          body: request,
          rawBody: repaired.dropped.length === 0 ? res.locals.rawBody : undefined,
          conversation: geminiConversation({ model: target.model, stream }),
          headers: {},
          inspect: inspectGenerateContentRequest,
          applyAssistant: (assistant) => applyAssistantToGemini(assistant, request),
        },
        nativeOnly: converted.nativeOnly,
        bridgeWarnings: repaired.dropped.length === 0 ? converted.warnings : [...repaired.dropped, ...converted.warnings],
        hooks: { advisory: GEMINI_HINTS },
      });
      const answer = relayAnswer<GeminiGenerateContentResponse>(res, result);
      // Without alt=sse a stream is one JSON array, written as it grows.
      if (result.kind === 'stream' && alt === 'json') res.setHeader('content-type', 'application/json; charset=utf-8');
      return answer;
    },

    countTokens: async ({ params, body, req, res }) => {
      const model = modelOf(params.target);
      // Rate-limited and allow-listed like any request; never charged nor held against tpm; a
      // row of its own endpoint, whose count is no usage (as Anthropic's count_tokens).
      const trace = traceOf(res);
      trace.countOnly = true;
      trace.endpoint = 'count_tokens';
      const prompt = countedPrompt(body);
      const { resolved } = await admitRequest(deps, req, res, convertGenerateContentToChat({ body: prompt, model, stream: false }).request);
      // An assistant's instructions and tools are counted as they would be sent.
      const native = resolved.assistant ? { ...body, generateContentRequest: applyAssistantToGemini(resolved.assistant, prompt) } : body;
      const counted = await countTokens(
        deps,
        {
          hub: resolved.request,
          dialect: 'generate_content',
          native,
          rawBody: native === body ? res.locals.rawBody : undefined,
          headers: {},
          answer: GeminiCountTokensResponseSchema,
          counted: (tokens) => ({ totalTokens: tokens }),
        },
        trace,
        watchCaller(res, trace),
      );
      return { status: 200, body: counted };
    },

    embedContent: async ({ params, body, req, res }) => {
      const [embedding] = await embed(req, res, modelOf(params.target), [body], false);
      if (!embedding) throw new Error('the embeddings pipeline answered no vector');
      return { status: 200, body: { embedding } };
    },

    batchEmbedContents: async ({ params, body, req, res }) => ({
      status: 200,
      body: { embeddings: await embed(req, res, modelOf(params.target), body.requests, true) },
    }),

    listGeminiModels: async ({ query, res }) => ({ status: 200, body: geminiModelPage(await listedModels(res), query) }),

    getGeminiModel: async ({ params, res }) => {
      const name = params.model.startsWith('models/') ? params.model : `models/${params.model}`;
      const model = (await listedModels(res)).find((listed) => listed.name === name);
      // A model the list hides is one the key cannot see: 404 NOT_FOUND, as Google answers.
      if (!model) throw modelNotFound(name.slice('models/'.length));
      return { status: 200, body: model };
    },
  });
}
