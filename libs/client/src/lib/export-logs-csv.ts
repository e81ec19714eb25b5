import type { LogExportQuery } from '@chat-relay/contract';
import { AxiosError, type AxiosInstance, type AxiosResponse } from 'axios';
import { abortErrorOf } from './abort-error';
import { toFetchHeaders } from './axios-fetcher';
import { chunksOf, readErrorBody, type StreamBody } from './response-body';
import { RelayApiError } from './relay-api-error';

/** The file name when the answer names none (or a browser on another origin cannot read it). */
export const DEFAULT_LOGS_CSV_FILENAME = 'chat-relay-logs.csv';

export interface LogsCsvDownload {
  /** From the answer's `content-disposition`, e.g. `chat-relay-logs-2026-01-31.csv`. */
  filename: string;
  requestId: string | undefined;
  /**
   * The CSV's bytes as the relay streams them (`new Blob(chunks)` in a browser, a file stream in
   * Node). Read it to the end, or leave the loop (or abort the signal) to close the request; a
   * transfer cut short throws `RelayApiError` `download_truncated`.
   */
  body: AsyncIterable<Uint8Array>;
}

export interface ExportLogsCsvArgs {
  http: AxiosInstance;
  baseUrl: string;
  apiKey: string;
  query: LogExportQuery;
  signal?: AbortSignal;
  /** Bounds the wait for the response headers only: a large export may take as long as it needs. */
  timeoutMs?: number;
}

/** The body as Uint8Array chunks (a Node stream in string mode would give text). */
async function* bytesOf(body: StreamBody): AsyncGenerator<Uint8Array, void, undefined> {
  const encoder = new TextEncoder();
  for await (const chunk of chunksOf(body)) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

/** `filename="…"` (as the relay sends it) or a bare `filename=…`. */
export function filenameOf(contentDisposition: string | null): string {
  const match = /filename="([^"]+)"|filename=([^;\s]+)/i.exec(contentDisposition ?? '');
  return match?.[1] ?? match?.[2] ?? DEFAULT_LOGS_CSV_FILENAME;
}

const queryParams = (query: LogExportQuery): Record<string, string> =>
  Object.fromEntries(Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])));

/**
 * `GET /api/logs/export`: resolves once the relay has answered 200, with the file name and the
 * body to read; throws `RelayApiError` (with the request id) on any other status.
 */
export async function exportLogsCsv(args: ExportLogsCsvArgs): Promise<LogsCsvDownload> {
  const { http, baseUrl, apiKey, query, signal, timeoutMs } = args;
  if (signal?.aborted) throw abortErrorOf(signal);
  // Our own controller: closes the request when the body is left early, even without a signal.
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
  const release = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
    controller.abort();
  };
  let response: AxiosResponse<StreamBody>;
  try {
    response = await http.request<StreamBody>({
      method: 'GET',
      url: `${baseUrl}/api/logs/export`,
      params: queryParams(query),
      headers: { authorization: `Bearer ${apiKey}`, accept: 'text/csv' },
      responseType: 'stream',
      validateStatus: () => true,
      signal: controller.signal,
    });
  } catch (error) {
    release();
    if (signal?.aborted) throw abortErrorOf(signal);
    if (timedOut) throw new AxiosError(`timeout of ${timeoutMs}ms exceeded`, AxiosError.ECONNABORTED);
    throw error;
  }
  clearTimeout(timer);
  const headers = toFetchHeaders(response.headers);
  const requestId = headers.get('x-request-id') ?? undefined;
  if (response.status < 200 || response.status >= 300) {
    try {
      throw RelayApiError.fromBody({ status: response.status, body: await readErrorBody(chunksOf(response.data)), requestId });
    } finally {
      release();
    }
  }
  const data = response.data;
  async function* body(): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      yield* bytesOf(data);
    } catch (error) {
      if (signal?.aborted) throw abortErrorOf(signal);
      const reason = error instanceof Error ? error.message : String(error);
      throw RelayApiError.invalidResponse({ code: 'download_truncated', message: `The export stopped before its end: ${reason}`, requestId });
    } finally {
      release();
    }
  }
  return { filename: filenameOf(headers.get('content-disposition')), requestId, body: body() };
}
