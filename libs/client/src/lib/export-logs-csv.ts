import type { LogExportQuery } from '@chat-relay/contract';
import type { AxiosInstance } from 'axios';
import { abortErrorOf } from './abort-error';
import { openStream } from './open-stream';
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
  const opened = await openStream({
    http,
    method: 'GET',
    url: `${baseUrl}/api/logs/export`,
    apiKey,
    accept: 'text/csv',
    params: queryParams(query),
    signal,
    timeoutMs,
  });
  const { requestId } = opened;
  async function* body(): AsyncGenerator<Uint8Array, void, undefined> {
    const encoder = new TextEncoder();
    try {
      // A Node stream in string mode would give text: the caller gets bytes either way.
      for await (const chunk of opened.chunks) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    } catch (error) {
      if (signal?.aborted) throw abortErrorOf(signal);
      const reason = error instanceof Error ? error.message : String(error);
      throw RelayApiError.invalidResponse({ code: 'download_truncated', message: `The export stopped before its end: ${reason}`, requestId });
    } finally {
      opened.close();
    }
  }
  return { filename: filenameOf(opened.headers.get('content-disposition')), requestId, body: body() };
}
