import { AxiosError, type AxiosInstance, type AxiosResponse } from 'axios';
import { abortErrorOf } from './abort-error';
import { toFetchHeaders } from './axios-fetcher';
import { chunksOf, isWebStream, readErrorBody, type StreamBody } from './response-body';
import { RelayApiError } from './relay-api-error';

export interface OpenStreamArgs {
  http: AxiosInstance;
  method: 'GET' | 'POST';
  url: string;
  apiKey: string;
  accept: string;
  data?: unknown;
  params?: Record<string, string>;
  signal?: AbortSignal;
  /** Bounds the wait for the response headers only: the body may then take as long as it needs. */
  timeoutMs?: number;
}

/** A 2xx answer whose body is still to be read. */
export interface OpenedStream {
  headers: Headers;
  requestId: string | undefined;
  /** The body's chunks (Node stream or web stream alike). */
  chunks: AsyncIterable<Uint8Array | string>;
  /** Ends the request, read to its end or not (leaving early tells the relay to stop). */
  close(): void;
}

/**
 * Sends a request whose answer is streamed and waits for its headers: a 2xx gives the body to
 * read; any other status throws `RelayApiError` (its JSON body, the request id); aborting
 * `signal` throws an AbortError; no headers within `timeoutMs` throws axios' timeout error.
 */
export async function openStream(args: OpenStreamArgs): Promise<OpenedStream> {
  const { signal, timeoutMs } = args;
  if (signal?.aborted) throw abortErrorOf(signal);
  // Our own controller, so the request is closed on early exit even when the caller gave none.
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  let body: StreamBody | undefined = undefined;
  const close = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
    if (body && !isWebStream(body) && !body.readableEnded) body.destroy();
    controller.abort();
  };
  let response: AxiosResponse<StreamBody>;
  try {
    response = await args.http.request<StreamBody>({
      method: args.method,
      url: args.url,
      data: args.data,
      params: args.params,
      headers: {
        authorization: `Bearer ${args.apiKey}`,
        accept: args.accept,
        ...(args.data === undefined ? {} : { 'content-type': 'application/json' }),
      },
      responseType: 'stream',
      validateStatus: () => true,
      signal: controller.signal,
    });
  } catch (error) {
    close();
    if (signal?.aborted) throw abortErrorOf(signal);
    if (timedOut) throw new AxiosError(`timeout of ${timeoutMs}ms exceeded`, AxiosError.ECONNABORTED);
    throw error;
  }
  clearTimeout(timer);
  body = response.data;
  const headers = toFetchHeaders(response.headers);
  const requestId = headers.get('x-request-id') ?? undefined;
  if (response.status < 200 || response.status >= 300) {
    try {
      throw RelayApiError.fromBody({ status: response.status, body: await readErrorBody(chunksOf(body)), requestId });
    } finally {
      close();
    }
  }
  return { headers, requestId, chunks: chunksOf(body), close };
}
