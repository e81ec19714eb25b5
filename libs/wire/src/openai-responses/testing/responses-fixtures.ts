/**
 * Test-only: the recorded Responses API traffic in `test-fixtures/openai-responses` (read at run
 * time; SOURCES.md there says where each file comes from and how cassettes are laid out). The
 * cassette and SSE readers are the Anthropic specs' own: the cassettes share one format.
 */
import type { SseEvent } from '../../hub/upstream-adapter';
import {
  cassetteRequestJson,
  cassetteResponseText,
  readCassette,
  readFixture,
  sseEventsOf,
  type CassetteInteraction,
} from '../../anthropic-messages/testing/anthropic-fixtures';

export { readFixture, sseEventsOf };

export interface ResponsesInteraction {
  /** `cassette-x.yaml turn 1`: what a spec names it by. */
  label: string;
  uri: string;
  /** The request body the client sent, parsed. */
  requestJson: Record<string, unknown>;
  /** The request bytes as sent, when the cassette recorded them raw (simonw/llm does; pydantic-ai stores them parsed). */
  requestText?: string;
  status: number;
  /** The response body as the upstream sent it: JSON text, or raw SSE. */
  responseText: string;
  /** The events of a streamed answer, read by a real SSE parser; undefined for a JSON answer. */
  responseEvents?: SseEvent[];
}

const isSse = (text: string): boolean => /^(event|data):/.test(text);

const rawRequestText = (interaction: CassetteInteraction): string | undefined =>
  typeof interaction.request.body === 'string' ? interaction.request.body : undefined;

/** Every interaction of `openai-responses/<name>`, in the order recorded. */
export function readResponsesCassette(name: string): ResponsesInteraction[] {
  return readCassette(`openai-responses/${name}`).map((interaction, index, all) => {
    const responseText = cassetteResponseText(interaction);
    const requestText = rawRequestText(interaction);
    return {
      label: all.length > 1 ? `${name} turn ${index + 1}` : name,
      uri: interaction.request.uri,
      requestJson: cassetteRequestJson(interaction),
      ...(requestText !== undefined ? { requestText } : {}),
      status: interaction.response.status.code,
      responseText,
      ...(isSse(responseText) ? { responseEvents: sseEventsOf(responseText) } : {}),
    };
  });
}

/**
 * `openai-responses/<name>.stream.jsonl`: one event's data a line (no `event:` lines), split into
 * the responses it holds — a vercel/ai multi-step test recorded several, each opening with
 * `response.created`.
 */
export function readResponsesStreamLines(name: string): SseEvent[][] {
  const streams: SseEvent[][] = [];
  let current: SseEvent[] = [];
  for (const data of readFixture(`openai-responses/${name}`).split(/\r?\n/)) {
    if (data.trim() === '') continue;
    const opens = (JSON.parse(data) as { type?: unknown }).type === 'response.created';
    if (opens || streams.length === 0) streams.push((current = []));
    current.push({ data });
  }
  return streams;
}

const CASSETTES = [
  'cassette-error-400-invalid-value.yaml',
  'cassette-function-call-roundtrip.yaml',
  'cassette-input-tokens-count.yaml',
  'cassette-previous-response-id-chain.yaml',
  'cassette-reasoning-encrypted-roundtrip.yaml',
  'cassette-reasoning-summary.yaml',
  'cassette-stream-function-call-roundtrip-2025-03.yaml',
  'cassette-stream-function-call-roundtrip.yaml',
  'cassette-stream-text.yaml',
  'cassette-text.yaml',
];

/** Every recorded interaction of every cassette. */
export const allResponsesInteractions = (): ResponsesInteraction[] => CASSETTES.flatMap(readResponsesCassette);

/** Every recorded stream that ends normally: the cassettes' SSE answers and the jsonl streams (the failing one apart). */
export function recordedResponsesStreams(): Array<[string, SseEvent[]]> {
  const cassetteStreams = allResponsesInteractions().flatMap((interaction): Array<[string, SseEvent[]]> =>
    interaction.responseEvents ? [[interaction.label, interaction.responseEvents]] : [],
  );
  const name = 'stream-reasoning-summary-then-tool-calls.stream.jsonl';
  const lineStreams = readResponsesStreamLines(name).map((events, index): [string, SseEvent[]] => [`${name} stream ${index + 1}`, events]);
  return [...cassetteStreams, ...lineStreams];
}

/** Every recorded 2xx Response object answered as JSON (the token count, not a Response, apart). */
export const recordedResponses = (): ResponsesInteraction[] =>
  allResponsesInteractions().filter(
    (interaction) => interaction.status < 300 && !interaction.responseEvents && !interaction.uri.endsWith('/input_tokens'),
  );
