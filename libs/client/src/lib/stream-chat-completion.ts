import type { ChatCompletionChunk, ChatCompletionRequest } from '@chat-relay/contract';
import type { AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';
import { abortErrorOf } from './abort-error';
import { toFetchHeaders } from './axios-fetcher';
import { parseChatCompletionStream } from './parse-chat-completion-stream';
import { RelayApiError } from './relay-api-error';

/** An error answer is a small JSON document; more than this is not worth reading. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

export interface StreamChatCompletionArgs {
  http: AxiosInstance;
  baseUrl: string;
  apiKey: string;
  request: ChatCompletionRequest;
  signal?: AbortSignal;
  /** Bounds the wait for the response headers; the stream itself may then last as long as it needs. */
  timeoutMs?: number;
}

/** What axios hands back for `responseType: 'stream'`: a Node stream, or a web stream with the fetch adapter (browsers). */
type StreamBody = Readable | ReadableStream<Uint8Array>;

const isWebStream = (body: StreamBody): body is ReadableStream<Uint8Array> =>
  typeof (body as ReadableStream<Uint8Array>).getReader === 'function';

/** The body's chunks; a web stream is read through its reader (not every browser iterates one). */
async function* chunksOf(body: StreamBody): AsyncGenerator<Uint8Array | string, void, undefined> {
  if (!isWebStream(body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Leaving early (break, error) cancels the request's body rather than leaving it half-read.
    await reader.cancel().catch(() => undefined);
  }
}

async function readErrorBody(body: AsyncIterable<Uint8Array | string>): Promise<unknown> {
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for await (const bytes of body) {
    text += typeof bytes === 'string' ? bytes : decoder.decode(bytes, { stream: true });
    size += bytes.length;
    if (size > MAX_ERROR_BODY_BYTES) break;
  }
  text += decoder.decode();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * POSTs the request with `stream: true` and yields each chunk of the answer. Leaving the
 * `for await` early (break, throw) or aborting `signal` closes the HTTP request, which tells
 * the relay to stop the upstream call too.
 */
export async function* streamChatCompletion(
  args: StreamChatCompletionArgs,
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { http, baseUrl, apiKey, request, signal, timeoutMs } = args;
  if (signal?.aborted) throw abortErrorOf(signal);
  // Our own controller, so the request is closed on early exit even when the caller gave none.
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let body: StreamBody | undefined;
  try {
    const response = await http.request<StreamBody>({
      method: 'POST',
      url: `${baseUrl}/v1/chat/completions`,
      data: { ...request, stream: true },
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'text/event-stream',
        'content-type': 'application/json',
      },
      responseType: 'stream',
      validateStatus: () => true,
      signal: controller.signal,
      timeout: timeoutMs,
    });
    body = response.data;
    const requestId = toFetchHeaders(response.headers).get('x-request-id') ?? undefined;
    if (response.status < 200 || response.status >= 300) {
      throw RelayApiError.fromBody({ status: response.status, body: await readErrorBody(chunksOf(body)), requestId });
    }
    yield* parseChatCompletionStream({ body: chunksOf(body), requestId });
  } catch (error) {
    if (signal?.aborted) throw abortErrorOf(signal);
    throw error;
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
    if (body && !isWebStream(body) && !body.readableEnded) body.destroy();
    controller.abort();
  }
}
