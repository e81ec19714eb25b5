/**
 * Test-only: the recorded Anthropic answers in `test-fixtures/anthropic` (read at run time;
 * SOURCES.md there describes each file and the cassette format).
 */
import { createParser } from 'eventsource-parser';
import yaml from 'js-yaml';
import { gunzipSync } from 'node:zlib';
import { readFixture } from '../../testing/fixtures';

export { readFixture };
import type { SseEvent } from '../../hub/upstream-adapter';

/** Raw SSE text → its events, by a real SSE parser (as the relay parses upstream bodies). */
export function sseEventsOf(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({ onEvent: ({ event, data }) => events.push(event ? { event, data } : { data }) });
  parser.feed(text);
  parser.reset({ consume: true });
  return events;
}

/** `*.sse` through the SSE parser; `*.stream.jsonl` (framing already stripped) one event a line. */
export function readStreamFixture(relativePath: string): SseEvent[] {
  const text = readFixture(relativePath);
  if (relativePath.endsWith('.sse')) return sseEventsOf(text);
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((data) => ({ data }));
}

type CassetteBody = string | Uint8Array | { string?: string | Uint8Array | null } | null | undefined;

export interface CassetteInteraction {
  request: { uri: string; body?: CassetteBody; parsed_body?: unknown };
  response: { status: { code: number }; body?: CassetteBody; parsed_body?: unknown };
}

export function readCassette(relativePath: string): CassetteInteraction[] {
  const cassette = yaml.load(readFixture(relativePath)) as { interactions: CassetteInteraction[] };
  return cassette.interactions;
}

/** A body as text: `!!binary` bodies are gzip (decoded by js-yaml from base64, unzipped here). */
function bodyText(body: CassetteBody): string | undefined {
  const raw = body !== null && typeof body === 'object' && !(body instanceof Uint8Array) ? body.string : body;
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'string') return raw;
  const bytes = Buffer.from(raw);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The JSON body the recorded client sent. */
export function cassetteRequestJson(interaction: CassetteInteraction): Record<string, unknown> {
  const { parsed_body: parsed, body } = interaction.request;
  return (parsed ?? JSON.parse(bodyText(body) ?? 'null')) as Record<string, unknown>;
}

/** The recorded response body as the upstream sent it (JSON text or raw SSE). */
export function cassetteResponseText(interaction: CassetteInteraction): string {
  const { parsed_body: parsed, body } = interaction.response;
  return parsed !== undefined ? JSON.stringify(parsed) : (bodyText(body) ?? '');
}
