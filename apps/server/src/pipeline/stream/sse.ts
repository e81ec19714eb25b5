import type { ErrorBody } from '@chat-relay/contract';

/** The only place that writes SSE framing. */

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // No `connection` header: Node writes keep-alive or close as the caller asked; setting it here
  // kept the socket open against a caller's `Connection: close` (issue 10, defect 12).
  // Tells nginx-style proxies in front of the relay not to buffer the stream.
  'x-accel-buffering': 'no',
};

export const sseData = (json: string): string => `data: ${json}\n\n`;

/**
 * A named event (Anthropic's framing). Data that spans lines (an upstream may send them) keeps
 * one `data:` field per line, so it reaches the caller as it was sent.
 */
export const sseEvent = (event: string, data: string): string =>
  `event: ${event}\ndata: ${data.includes('\n') ? data.split('\n').join('\ndata: ') : data}\n\n`;

export const SSE_DONE = 'data: [DONE]\n\n';

export const sseError = (error: ErrorBody): string => sseData(JSON.stringify({ error }));
