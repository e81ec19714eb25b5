import {
  DEFAULT_IMAGE_MODEL,
  DEFAULT_MODERATION_MODEL,
  DEFAULT_SEARCH_MODEL,
  endpointsContract,
  ImageEditFieldsSchema,
  TranscriptionFieldsSchema,
  TranslationFieldsSchema,
  type Completion,
  type CompletionRequest,
  type EmbeddingList,
  type ImagesResponse,
  type ModerationResponse,
  type RerankResponse,
  type SearchRequest,
  type SearchResponse,
  type Transcription,
  type Endpoint,
  type ImageGenerationRequest,
} from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import {
  invalidRequest,
  jsonEndpointAdapter,
  multipartEndpointAdapter,
  searchAdapterFor,
  type JsonEndpointRoute,
  type MultipartEndpointRoute,
  type MultipartRequest,
} from '@chat-relay/wire';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { audioSeconds } from '../billing/audio-duration';
import { runEndpoint, type EndpointCall, type EndpointResult, type UsageBound } from '../pipeline/run-endpoint';
import { traceOf, type PipelineDeps } from '../pipeline/run-pipeline';
import { relayAnswer } from './relay-answer';
import { performance } from 'node:perf_hooks';

type Json = Readonly<Record<string, unknown>>;

/** OpenAI's default completion length for /v1/completions. */
const DEFAULT_COMPLETION_TOKENS = 16;
/** The most output tokens one gpt-image image is billed (high quality, 1536×1024). */
const IMAGE_TOKENS_BOUND = 6_240;

/** The caller's bytes, or the body as sent: a prompt's tokens are never more than its bytes. */
const bodyBytes = (res: Response, body: unknown): number => res.locals.rawBody?.length ?? Buffer.byteLength(JSON.stringify(body));

/** `quality/size` as images are priced (see imagePrice). */
const imageVariant = (quality: string | null | undefined, size: string | null | undefined): string | undefined =>
  quality && size ? `${quality}/${size}` : (size ?? quality ?? undefined);

/**
 * The answer as ts-rest sends it: JSON and SSE as every relayed answer (relayAnswer); audio bytes
 * piped with the upstream's type; text (srt, vtt…) with its own type and length.
 */
function answer<T>(res: Response, result: EndpointResult): { status: 200; body: T } {
  if (result.kind === 'json' || result.kind === 'stream') return relayAnswer<T>(res, result);
  if (result.kind === 'bytes') {
    res.setHeader('content-type', result.contentType);
    return { status: 200, body: result.body as unknown as T };
  }
  const trace = traceOf(res);
  trace.ttfbMs = performance.now() - trace.startedAt;
  res.setHeader('content-type', result.contentType);
  res.setHeader('content-length', Buffer.byteLength(result.text));
  return { status: 200, body: Readable.from([Buffer.from(result.text)]) as unknown as T };
}

/** The multipart upload the body middleware received (and spooled to disk). */
function uploadOf(res: Response): MultipartRequest {
  const upload = res.locals.upload;
  if (!upload) throw new Error('multipart body middleware missing on an upload route');
  return upload;
}

/**
 * The OpenAI endpoints beside chat (SPEC §7a), each one call of the shared endpoint pipeline with
 * its schema (validated by the contract), its adapters and its bound.
 */
export function endpointsRouter(deps: PipelineDeps) {
  const s = initServer();
  const json = (req: Request, res: Response, endpoint: Endpoint, route: JsonEndpointRoute, path: string, model: string, rest: Partial<EndpointCall<Json>> & { bound(): UsageBound; lower: string }) =>
    runEndpoint<Json>(deps, req, res, {
      endpoint,
      route: path,
      model,
      request: req.body as Json,
      rawBody: res.locals.rawBody,
      stream: false,
      adapterFor: (type) => jsonEndpointAdapter(route, type),
      ...rest,
    });
  const multipart = (req: Request, res: Response, endpoint: Endpoint, route: MultipartEndpointRoute, path: string, model: string, rest: Partial<EndpointCall<MultipartRequest>> & { bound(): UsageBound | Promise<UsageBound>; lower: string }) =>
    runEndpoint<MultipartRequest>(deps, req, res, {
      endpoint,
      route: path,
      model,
      request: uploadOf(res),
      stream: false,
      adapterFor: (type) => multipartEndpointAdapter(route, type),
      ...rest,
    });
  const audioFile = (res: Response) => uploadOf(res).files.find((file) => file.field === 'file');

  return s.router(endpointsContract, {
    createCompletion: async ({ body, req, res }) => {
      const request: CompletionRequest = body;
      if (request.stream_options && !request.stream) {
        throw invalidRequest('stream_options is only allowed when stream is true.', 'stream_options', 'invalid_value');
      }
      const prompts = Array.isArray(request.prompt) && (typeof request.prompt[0] === 'string' || Array.isArray(request.prompt[0])) ? request.prompt.length : 1;
      const choices = Math.max(request.n ?? 1, request.best_of ?? 1) * prompts;
      const result = await json(req, res, 'completions', 'completions', '/v1/completions', request.model, {
        stream: request.stream === true,
        wantsUsage: request.stream_options?.include_usage === true,
        promptText: () => (typeof request.prompt === 'string' ? request.prompt : JSON.stringify(request.prompt)),
        bound: () => ({ promptTokens: bodyBytes(res, body), completionTokens: (request.max_tokens ?? DEFAULT_COMPLETION_TOKENS) * choices, units: 0 }),
        lower: 'lower max_tokens (or n, best_of) or shorten the prompt',
      });
      return answer<Completion>(res, result);
    },

    createEmbedding: async ({ body, req, res }) =>
      answer<EmbeddingList>(
        res,
        await json(req, res, 'embeddings', 'embeddings', '/v1/embeddings', body.model, {
          bound: () => ({ promptTokens: bodyBytes(res, body), completionTokens: 0, units: 0 }),
          lower: 'send fewer or shorter inputs',
        }),
      ),

    createRerank: async ({ body, req, res }) =>
      answer<RerankResponse>(
        res,
        await json(req, res, 'rerank', 'rerank', '/v1/rerank', body.model, {
          bound: () => ({ promptTokens: bodyBytes(res, body), completionTokens: 0, units: Math.ceil(body.documents.length / 100) }),
          lower: 'send fewer documents',
        }),
      ),

    createModeration: async ({ body, req, res }) =>
      answer<ModerationResponse>(
        res,
        await json(req, res, 'moderations', 'moderations', '/v1/moderations', body.model ?? DEFAULT_MODERATION_MODEL, {
          bound: () => ({ promptTokens: bodyBytes(res, body), completionTokens: 0, units: 0 }),
          lower: 'send less input',
        }),
      ),

    createImage: async ({ body, req, res }) => {
      const request: ImageGenerationRequest = body;
      const model = request.model ?? DEFAULT_IMAGE_MODEL;
      const n = request.n ?? 1;
      const result = await json(req, res, 'images', 'images_generations', '/v1/images/generations', model, {
        bound: () => ({
          promptTokens: bodyBytes(res, body),
          completionTokens: model.startsWith('gpt-image') ? n * IMAGE_TOKENS_BOUND : 0,
          units: n,
          unitVariant: imageVariant(request.quality, request.size),
        }),
        lower: 'ask for fewer images (n) or a smaller size or quality',
      });
      return answer<ImagesResponse>(res, result);
    },

    editImage: async ({ req, res }) => {
      // Validated by the contract already; parsed again for its type, which ts-rest loses on multipart routes.
      const body = ImageEditFieldsSchema.parse(req.body);
      const model = body.model ?? DEFAULT_IMAGE_MODEL;
      const n = body.n ?? 1;
      const upload = uploadOf(res);
      const result = await multipart(req, res, 'images', 'images_edits', '/v1/images/edits', model, {
        bound: () => ({
          promptTokens: body.prompt.length * 4 + upload.files.reduce((sum, file) => sum + file.size, 0),
          completionTokens: model.startsWith('gpt-image') ? n * IMAGE_TOKENS_BOUND : 0,
          units: n,
          unitVariant: imageVariant(body.quality, body.size),
        }),
        lower: 'ask for fewer images (n) or a smaller size or quality',
      });
      return answer<ImagesResponse>(res, result);
    },

    createSpeech: async ({ body, req, res }) => {
      const characters = [...body.input].length;
      const result = await json(req, res, 'audio_speech', 'audio_speech', '/v1/audio/speech', body.model, {
        bound: () => ({ promptTokens: bodyBytes(res, body), completionTokens: 0, units: characters }),
        lower: 'send a shorter input',
      });
      return answer<unknown>(res, result);
    },

    createTranscription: async ({ req, res }) => {
      const body = TranscriptionFieldsSchema.parse(req.body);
      return answer<Transcription>(res, await transcribe(req, res, 'audio_transcriptions', '/v1/audio/transcriptions', body.model, body.prompt));
    },

    createTranslation: async ({ req, res }) => {
      const body = TranslationFieldsSchema.parse(req.body);
      return answer<Transcription>(res, await transcribe(req, res, 'audio_translations', '/v1/audio/translations', body.model, body.prompt));
    },

    search: async ({ body, req, res }) => {
      const request: SearchRequest = body;
      const result = await runEndpoint<SearchRequest>(deps, req, res, {
        endpoint: 'search',
        route: '/v1/search',
        model: request.model ?? DEFAULT_SEARCH_MODEL,
        request,
        stream: false,
        adapterFor: searchAdapterFor,
        bound: () => ({ promptTokens: 0, completionTokens: 0, units: 1 }),
        lower: 'nothing to lower: a search is one query',
      });
      return answer<SearchResponse>(res, result);
    },
  });

  function transcribe(req: Request, res: Response, route: MultipartEndpointRoute, path: string, model: string, prompt: string | undefined) {
    const file = audioFile(res);
    if (!file) throw invalidRequest('Send the audio as a file in the form field "file".', 'file', 'missing_required_parameter');
    return multipart(req, res, 'audio_transcriptions', route, path, model, {
      // Whole seconds: whisper reports (and bills) a 2.5 s file as 3.
      bound: async () => ({ promptTokens: (prompt?.length ?? 0) * 4, completionTokens: 0, units: Math.ceil(await audioSeconds(file, true)) }),
      estimateUnits: () => audioSeconds(file, false),
      lower: 'send a shorter recording',
    });
  }
}
