import {
  ChatCompletionSchema,
  relayContract,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type LogExportQuery,
  type RelayContract,
} from '@chat-relay/contract';
import { initClient, UnknownStatusError, type ApiFetcher, type InitClientReturn } from '@ts-rest/core';
import axios, { type AxiosInstance } from 'axios';
import { withAbortError } from './abort-error';
import { createAxiosFetcher } from './axios-fetcher';
import { exportLogsCsv, type LogsCsvDownload } from './export-logs-csv';
import { RelayApiError } from './relay-api-error';
import { streamChatCompletion } from './stream-chat-completion';

export interface RelayClientOptions {
  /** Where the relay answers, e.g. `http://localhost:3000` (no `/v1`). */
  baseUrl: string;
  /** An API token (`sk-…`) for `/v1/*`, or a management key for `/api/*`. */
  apiKey: string;
  /** Bring your own axios (proxy, agents, interceptors); a fresh instance otherwise. */
  axiosInstance?: AxiosInstance;
  /** Time allowed until the response headers (the whole body when not streamed). */
  timeoutMs?: number;
  /** Check every typed response against the contract's zod schema (off by default). */
  validateResponse?: boolean;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/** A request `createChatCompletion` can answer with one JSON body. */
export type NonStreamingChatCompletionRequest = ChatCompletionRequest & { stream?: false | null };

/** The ts-rest client arguments the `api` property is typed with. */
export interface RelayTsRestArgs {
  baseUrl: string;
  baseHeaders: { authorization: string };
  api: ApiFetcher;
  /** Statuses the contract does not list throw `UnknownStatusError`, so the typed unions hold. */
  throwOnUnknownStatus: true;
  validateResponse: boolean;
}

export type RelayApi = InitClientReturn<RelayContract, RelayTsRestArgs>;

export interface RelayClient {
  /** Every route of the contract, answering typed `{ status, body, headers }` unions. */
  api: RelayApi;
  /** Chunks of a streamed chat completion; see `streamChatCompletion`. */
  streamChatCompletion(request: ChatCompletionRequest, options?: RequestOptions): AsyncIterable<ChatCompletionChunk>;
  /** The completion on 200; throws `RelayApiError` on any other answer. */
  createChatCompletion(request: NonStreamingChatCompletionRequest, options?: RequestOptions): Promise<ChatCompletion>;
  /**
   * `GET /api/logs/export` (a management key): the log as CSV, streamed, with its file name;
   * the listing's filters. Throws `RelayApiError` on any answer but 200; see `LogsCsvDownload`.
   */
  exportLogsCsv(query?: LogExportQuery, options?: RequestOptions): Promise<LogsCsvDownload>;
}

const requestIdOf = (response: object): string | undefined =>
  'headers' in response && response.headers instanceof Headers
    ? (response.headers.get('x-request-id') ?? undefined)
    : undefined;

/** The typed chat-relay client: the contract's routes plus chat helpers. */
export function createRelayClient(options: RelayClientOptions): RelayClient {
  const { apiKey, timeoutMs } = options;
  // `${baseUrl}/v1/…` must not become `//v1/…`.
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const http = options.axiosInstance ?? axios.create();
  const clientArgs: RelayTsRestArgs = {
    baseUrl,
    baseHeaders: { authorization: `Bearer ${apiKey}` },
    api: createAxiosFetcher({ http, timeoutMs }),
    throwOnUnknownStatus: true,
    validateResponse: options.validateResponse ?? false,
  };
  const api = initClient(relayContract, clientArgs);

  async function createChatCompletion(
    request: NonStreamingChatCompletionRequest,
    { signal }: RequestOptions = {},
  ): Promise<ChatCompletion> {
    // The type already forbids it; this is for callers without a type-checker.
    if ((request as ChatCompletionRequest).stream === true) {
      throw new TypeError('createChatCompletion answers one JSON body; use streamChatCompletion for stream: true');
    }
    const response = await withAbortError(signal, () =>
      api.chat.createChatCompletion({ body: request, fetchOptions: { signal } }),
    ).catch((error: unknown) => {
      if (error instanceof UnknownStatusError) {
        throw RelayApiError.fromBody({ ...error.response, requestId: requestIdOf(error.response) });
      }
      throw error;
    });
    const requestId = requestIdOf(response);
    if (response.status !== 200) throw RelayApiError.fromBody({ ...response, requestId });
    const parsed = ChatCompletionSchema.safeParse(response.body);
    if (!parsed.success) {
      throw RelayApiError.invalidResponse({
        code: 'invalid_response',
        message: `The answer is not a chat.completion: ${parsed.error.issues[0]?.message ?? parsed.error.message}`,
        requestId,
      });
    }
    return parsed.data;
  }

  return {
    api,
    streamChatCompletion: (request, { signal } = {}) =>
      streamChatCompletion({ http, baseUrl, apiKey, request, signal, timeoutMs }),
    createChatCompletion,
    exportLogsCsv: (query = {}, { signal } = {}) => exportLogsCsv({ http, baseUrl, apiKey, query, signal, timeoutMs }),
  };
}
