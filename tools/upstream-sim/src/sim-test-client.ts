// Helpers for the HTTP specs: a real fetch client and an SSE splitter (not exported by index.ts).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { UpstreamSim } from './sim-types';

export const testKey = 'sk-test-upstream-sim';

export function postChat(sim: UpstreamSim, body: unknown, init: { key?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = init.key ?? testKey;
  if (key) headers['authorization'] = `Bearer ${key}`;
  return fetch(`${sim.baseUrl}/chat/completions`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

/** A call to the OpenAI side under `base` (default `sim.baseUrl`), e.g. `/responses/resp_1/input_items?limit=2`. */
export function callOpenAi(
  sim: UpstreamSim,
  method: string,
  path: string,
  init: { body?: unknown; key?: string; base?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = init.key ?? testKey;
  if (key) headers['authorization'] = `Bearer ${key}`;
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  return fetch(`${init.base ?? sim.baseUrl}${path}`, { method, headers, body, signal: init.signal });
}

/** `POST {baseUrl}/responses`. */
export function postResponses(
  sim: UpstreamSim,
  body: unknown,
  init: { key?: string; base?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return callOpenAi(sim, 'POST', '/responses', { ...init, body });
}

/** Everything the server sent, and the error that ended the read when the stream broke. */
export async function readAll(response: Response): Promise<{ text: string; error: unknown }> {
  const decoder = new TextDecoder();
  let text = '';
  if (!response.body) return { text, error: undefined };
  try {
    for await (const part of response.body) text += decoder.decode(part, { stream: true });
    return { text, error: undefined };
  } catch (error) {
    return { text, error };
  }
}

/** The `data:` payloads of a complete or partial SSE body, in order. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((event) => event.length > 0)
    .map((event) => event.replace(/^data: /, ''));
}

export const anthropicVersion = '2023-06-01';

export interface AnthropicCallInit {
  key?: string;
  version?: string;
  /** `anthropic-beta`, sent when set. */
  beta?: string;
  /** Under `anthropicBaseUrl`; default `/messages`. */
  path?: string;
  signal?: AbortSignal;
}

/** The headers of an Anthropic call: `x-api-key` and `anthropic-version` (each omitted when ''), `anthropic-beta`. */
export function anthropicHeaders(init: AnthropicCallInit = {}): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = init.key ?? testKey;
  const version = init.version ?? anthropicVersion;
  if (key) headers['x-api-key'] = key;
  if (version) headers['anthropic-version'] = version;
  if (init.beta !== undefined) headers['anthropic-beta'] = init.beta;
  return headers;
}

/** `POST {anthropicBaseUrl}/messages` (or `init.path`) with the Anthropic headers. */
export function postAnthropic(sim: UpstreamSim, body: unknown, init: AnthropicCallInit = {}): Promise<Response> {
  return fetch(`${sim.anthropicBaseUrl}${init.path ?? '/messages'}`, {
    method: 'POST',
    headers: anthropicHeaders(init),
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

/** `POST {geminiBaseUrl}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse`. */
export function postGemini(
  sim: UpstreamSim,
  body: unknown,
  init: { model?: string; stream?: boolean; key?: string; query?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = init.key ?? testKey;
  if (key) headers['x-goog-api-key'] = key;
  const model = init.model ?? 'gemini-2.5-flash';
  const path = init.stream ? `:streamGenerateContent?${init.query ?? 'alt=sse'}` : ':generateContent';
  return fetch(`${sim.geminiBaseUrl}/models/${model}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

/** The events of an SSE body, parsed by a real parser (names where the server sent `event:`). */
export function parseSse(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

/** `POST {baseUrl}{path}` with a multipart form (fetch sets the boundary), e.g. `/audio/transcriptions`. */
export function postForm(sim: UpstreamSim, path: string, form: FormData, init: { key?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const key = init.key ?? testKey;
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  return fetch(`${sim.baseUrl}${path}`, { method: 'POST', headers, body: form, signal: init.signal });
}
